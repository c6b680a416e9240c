// Moving between drafts without losing edits: pending changes are saved first, and a draft
// that cannot be saved stays open (its text is kept).
import { call, describeError } from '../lib/bridge.js';
import { readDraft } from '../lib/drafts.js';
import { useEditor, useStudio, useUi } from './index.js';

/** Saves pending edits before leaving a draft; refuses to leave if they cannot be saved. */
export async function leaveCurrentDraft(): Promise<boolean> {
  const ed = useEditor.getState();
  if (ed.saveState !== 'saved') await ed.saveNow();
  if (useEditor.getState().saveState === 'error') {
    useUi.getState().notify({ kind: 'error', text: 'This draft could not be saved yet, so it stays open. Your text is kept.' });
    return false;
  }
  return true;
}

export async function openDraft(id: string): Promise<void> {
  if (useStudio.getState().draftId === id) return;
  if (!(await leaveCurrentDraft())) return;
  try {
    const d = readDraft(await call('drafts.get', { id }));
    useStudio.getState().loadDocument(d, d.id);
  } catch (e) {
    useUi.getState().notify({ kind: 'error', text: `Could not open the draft: ${describeError(e)}` });
  }
}
