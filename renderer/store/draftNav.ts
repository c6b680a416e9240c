// Moving between drafts without losing edits: pending changes are saved first, and a draft
// that cannot be saved stays open (its text is kept).
import { call, describeError } from '../lib/bridge.js';
import { useEditor } from './editor.js';
import { useUi } from './ui.js';

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
  if (useEditor.getState().draft.id === id) return;
  if (!(await leaveCurrentDraft())) return;
  try {
    useEditor.getState().open(await call('drafts.get', { id }));
  } catch (e) {
    useUi.getState().notify({ kind: 'error', text: `Could not open the draft: ${describeError(e)}` });
  }
}
