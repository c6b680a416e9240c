// Roving focus: a list is one Tab stop, arrow keys (and Home/End) move inside it. Each list
// marks its items with a selector; only one item has tabIndex 0.

/** Moves focus among `selector` items inside `container` for ArrowUp/Down, Home, End; true if handled. */
export function moveFocus(e: React.KeyboardEvent, container: HTMLElement | null, selector: string): boolean {
  const keys: Record<string, (i: number, n: number) => number> = {
    ArrowDown: (i, n) => Math.min(n - 1, i + 1),
    ArrowUp: (i) => Math.max(0, i - 1),
    Home: () => 0,
    End: (_i, n) => n - 1,
  };
  const step = keys[e.key];
  if (!step || !container || e.altKey || e.ctrlKey || e.metaKey) return false;
  const items = [...container.querySelectorAll<HTMLElement>(selector)];
  const i = items.indexOf(document.activeElement as HTMLElement);
  if (i < 0 || !items.length) return false;
  e.preventDefault();
  items[step(i, items.length)]?.focus();
  return true;
}

/** The id that holds the Tab stop: the last focused if still shown, else the preferred, else the first. */
export function tabStop(ids: string[], lastFocused: string | null, preferred: string | null): string | null {
  if (lastFocused && ids.includes(lastFocused)) return lastFocused;
  if (preferred && ids.includes(preferred)) return preferred;
  return ids[0] ?? null;
}
