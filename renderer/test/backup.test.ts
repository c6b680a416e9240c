// The unsaved-draft backup: what comes back from localStorage is checked. A backup that is not
// JSON or not a draft is left out (the app starts as if there were none) instead of reaching
// the editor; a good one comes back whole, however long its text. (Node has no localStorage:
// a Map stands in for the page's storage; the app's own start-up is covered in tests/ui.)
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { clearBackup, readBackup, writeBackup, type EditorDraft } from '../store/backup.js';

const map = new Map<string, string>();
const storage = () =>
  ({
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  }) as Storage;
const KEY = 'presenter-studio.unsaved-draft';
const draft: EditorDraft = {
  id: null, version: 3, name: 'Untitled script', templateId: 'newsroom', voiceId: null,
  params: { aspectRatio: '9:16', avatar: { scale: 0.6, x: 0.5, y: 0.58 } }, placements: {}, presenterId: null,
  scenes: [
    { id: 's_1', text: 'x'.repeat(30_000), background: null, presenter: true, avatar: null, placements: {}, presenterId: null, transition: 'cut', minSeconds: null },
    { id: 's_2', text: 'Over my slide.', background: { assetId: 'ast_1', fit: 'contain', page: 2 }, presenter: false, avatar: null, placements: {}, presenterId: null, transition: 'fade', minSeconds: 4 },
  ],
};

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  map.clear();
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => warn.mockRestore());

it('brings a backup back whole, and none once cleared', () => {
  writeBackup(draft, storage);
  expect(readBackup(storage)).toEqual(draft);
  clearBackup(storage);
  expect(readBackup(storage)).toBeNull();
  expect(warn).not.toHaveBeenCalled();
});

it('brings back a backup written before scenes as one scene', () => {
  const { scenes: _s, version: _v, placements: _p, presenterId: _i, ...v1 } = draft;
  map.set(KEY, JSON.stringify({ ...v1, text: 'Written before scenes.' }));
  const back = readBackup(storage);
  expect(back).toMatchObject({ version: 3, name: 'Untitled script', templateId: 'newsroom' });
  expect(back?.scenes).toEqual([expect.objectContaining({ text: 'Written before scenes.', background: null, presenter: true })]);
});

it.each([
  ['not JSON', '{"text": "half'],
  ['not a draft', JSON.stringify({ ...draft, params: 'wide' })],
  ['of the wrong types', JSON.stringify({ ...draft, scenes: [{ ...draft.scenes[0], text: 42 }] })],
  ['without scenes', JSON.stringify({ ...draft, scenes: [] })],
])('leaves out a backup that is %s, with a warning', (_, raw) => {
  map.set(KEY, raw);
  expect(readBackup(storage)).toBeNull();
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('unsaved-draft backup'));
});

it('reads no backup where storage is disabled', () => {
  expect(readBackup(() => { throw new Error('SecurityError'); })).toBeNull();
});
