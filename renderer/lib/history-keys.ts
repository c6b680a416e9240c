// The document's undo and redo on the keyboard: Ctrl+Z (⌘Z) undoes; Ctrl+Shift+Z (⇧⌘Z) and
// Ctrl+Y redo. A text field keeps its own undo while it has focus (the browser's, which undoes
// what was typed there with its caret and selection); the document's undo is everywhere else.

export type HistoryKey = 'undo' | 'redo';

export function historyKey(e: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'key'>): HistoryKey | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return null;
  const k = e.key.toLowerCase();
  if (k === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (k === 'y' && !e.shiftKey) return 'redo';
  return null;
}

const NOT_TEXT = ['button', 'checkbox', 'radio', 'range', 'color', 'file', 'submit', 'reset'];

/** True for an element that edits text (its own undo applies). */
export function typesText(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t instanceof HTMLTextAreaElement) return true;
  return t instanceof HTMLInputElement && !NOT_TEXT.includes(t.type);
}

/** Listens on `target` for the history keys; `active` says whether the document is on screen. */
export function bindHistoryKeys(run: (k: HistoryKey) => void, active: () => boolean, target: Window = window): () => void {
  const onKey = (e: KeyboardEvent) => {
    const k = historyKey(e);
    if (!k || !active() || typesText(e.target)) return;
    e.preventDefault();
    run(k);
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
