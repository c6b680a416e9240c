// The open draft's backup in localStorage: written on every change, read once at start so
// edits that never reached drafts.save (crash, closed window) come back. What is read is
// checked, not trusted: a backup that is not JSON or not a draft (an older release, a hand
// edit) is left out with a console warning, and the app starts as if there were none.
import { z } from 'zod';
import { RenderParams } from '../../shared/contract/index.js';

/** The draft as the editor holds it: no length limits here, so nothing typed is refused on the way back. */
export const EditorDraft = z.object({
  id: z.string().nullable(),
  name: z.string(),
  text: z.string(),
  templateId: z.string().nullable(),
  voiceId: z.string().nullable(),
  params: RenderParams,
});
export type EditorDraft = z.infer<typeof EditorDraft>;

const BACKUP_KEY = 'presenter-studio.unsaved-draft';

/** The page's localStorage; a function, since reading it throws where storage is disabled. */
const pageStorage = (): Storage => localStorage;

export function writeBackup(d: EditorDraft, storage = pageStorage): void {
  try {
    storage().setItem(BACKUP_KEY, JSON.stringify(d));
  } catch {
    /* storage full or disabled: the in-memory copy and the save still stand */
  }
}

export function readBackup(storage = pageStorage): EditorDraft | null {
  let raw: string | null;
  try {
    raw = storage().getItem(BACKUP_KEY);
  } catch {
    return null; // storage disabled: there is no backup
  }
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    console.warn('the unsaved-draft backup is not JSON; it is left out');
    return null;
  }
  const parsed = EditorDraft.safeParse(value);
  if (parsed.success) return parsed.data;
  console.warn(`the unsaved-draft backup is not a draft (${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}); it is left out`);
  return null;
}

export function clearBackup(storage = pageStorage): void {
  try {
    storage().removeItem(BACKUP_KEY);
  } catch {
    /* storage disabled: nothing was kept */
  }
}
