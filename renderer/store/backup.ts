// The open draft's backup in localStorage: written on every edit, read once at start so edits
// that never reached drafts.save (crash, closed window) come back. What is read is checked,
// not trusted: a backup that is not JSON or not a draft (a hand edit) is left out with a
// console warning, and the app starts as if there were none. A backup written before scenes
// (one script) comes back as one scene, one of version 2 with no placements at other ratios.
import { z } from 'zod';
import { DocumentScene, VideoDocument, blankScene, upgradeDocument } from '../../shared/contract/document.js';
import { RenderParams } from '../../shared/contract/index.js';
import type { EditorDocument } from './document.js';

/** The document as the editor holds it, and its draft's id: no length limits here, so nothing typed is refused on the way back. */
export const EditorDraft = VideoDocument.extend({
  id: z.string().nullable(),
  name: z.string(),
  params: RenderParams,
  scenes: z.array(DocumentScene.extend({ text: z.string() })).min(1),
});
export type EditorDraft = EditorDocument & { id: string | null };

/** A backup from before scenes: one script. */
const EditorDraftV1 = z.object({ id: z.string().nullable(), name: z.string(), text: z.string(), templateId: z.string().nullable(), voiceId: z.string().nullable(), params: RenderParams });

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

function parseBackup(value: unknown) {
  const v1 = !!value && typeof value === 'object' && !('version' in value);
  // A version-2 backup (one placement for every aspect ratio) is upgraded as a saved draft is.
  if (!v1) return EditorDraft.safeParse(upgradeDocument(value));
  const old = EditorDraftV1.safeParse(value);
  if (!old.success) return old;
  const { text, ...rest } = old.data;
  return EditorDraft.safeParse({ ...rest, version: VideoDocument.shape.version.value, placements: {}, presenterId: null, scenes: [blankScene(text)] });
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
  const parsed = parseBackup(value);
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
