// Undo and redo of document edits (zundo's temporal middleware). Only the document is
// tracked (and which scene was selected with it, so undoing a delete selects the scene it
// brings back); jobs, settings, connection and the UI's chrome never enter the history.
// Typing is one step per pause: keystrokes in the same text within a second join the step
// before them, so Ctrl+Z outside the field does not undo a word letter by letter.
import type { StoreApi } from 'zustand';
import type { TemporalState, ZundoOptions } from 'zundo';
import type { StudioState } from './index.js';

export type Tracked = Pick<StudioState, 'document' | 'selectedSceneId'>;

/** Keystrokes closer than this are one undo step. */
export const TYPING_STEP_MS = 1000;
export const HISTORY_LIMIT = 200;

/** True when two versions of a scene differ in their text and nothing else. */
function onlyTextDiffers<T extends { text: string }>(x: T, y: T): boolean {
  return x.text !== y.text && (Object.keys(x) as (keyof T)[]).every((k) => k === 'text' || x[k] === y[k]);
}

/** What a change typed into: one scene's text, or the name; '' for any other change. */
function typingKey(past: Tracked, now: Tracked): string {
  const a = past.document;
  const b = now.document;
  if (a.scenes === b.scenes) {
    return a.name !== b.name && a.templateId === b.templateId && a.voiceId === b.voiceId && a.params === b.params ? 'name' : '';
  }
  if (a.name !== b.name || a.scenes.length !== b.scenes.length) return '';
  let key = '';
  for (let i = 0; i < a.scenes.length; i++) {
    const x = a.scenes[i]!;
    const y = b.scenes[i]!;
    if (x === y) continue;
    if (key || !onlyTextDiffers(x, y)) return '';
    key = `text:${x.id}`;
  }
  return key;
}

/** The middleware's options; `history` is read when a change is recorded (it exists by then). */
export function historyOptions(history: () => StoreApi<TemporalState<Tracked>>): ZundoOptions<StudioState, Tracked> {
  return {
    partialize: (s) => ({ document: s.document, selectedSceneId: s.selectedSceneId }),
    equality: (a, b) => a.document === b.document,
    limit: HISTORY_LIMIT,
    handleSet: (handleSet) => {
      // zundo hands its own recorder (four arguments) typed as setState.
      const record = handleSet as unknown as (...args: unknown[]) => void;
      let last = { key: '', at: 0 };
      return (past, replace, current, delta) => {
        const now = Date.now();
        const key = typingKey(past as Tracked, current);
        const joins = key !== '' && key === last.key && now - last.at < TYPING_STEP_MS && history().getState().futureStates.length === 0;
        last = { key, at: now };
        if (!joins) record(past, replace, current, delta);
      };
    },
  };
}
