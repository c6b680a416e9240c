// Which screen is showing, transient notices, and the theme (kept in localStorage: it is a
// preference of this browser/app window, not of a render API).
import type { SliceApi } from './slice.js';

export type View = 'create' | 'jobs' | 'settings';
export type Theme = 'light' | 'dark' | 'system';

export interface Notice {
  id: number;
  kind: 'info' | 'error' | 'success';
  text: string;
  action?: { label: string; run(): void };
  /** Runs when the notice goes without its action being used (timed out or dismissed). */
  onExpire?: () => void;
}

export interface UiState {
  view: View;
  theme: Theme;
  notices: Notice[];
  setView(v: View): void;
  setTheme(t: Theme): void;
  notify(n: Omit<Notice, 'id'>, ms?: number): void;
  /** Removes a notice; `acted` when its action ran (then onExpire does not). */
  dismiss(id: number, acted?: boolean): void;
}

const THEME_KEY = 'presenter-studio.theme';
function storedTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

export function createUiSlice({ set, get }: SliceApi<UiState>): UiState {
  let nextId = 1;
  return {
    view: 'create',
    theme: storedTheme(),
    notices: [],
    setView: (view) => set({ view }),
    setTheme(theme) {
      try {
        localStorage.setItem(THEME_KEY, theme);
      } catch {
        /* private mode: the choice lasts for this session */
      }
      set({ theme });
    },
    notify(n, ms = 5000) {
      const id = nextId++;
      const all = get().notices;
      set({ notices: [...all.slice(-3), { ...n, id }] });
      for (const old of all.slice(0, -3)) old.onExpire?.(); // pushed out: as if it timed out
      if (ms > 0) setTimeout(() => get().dismiss(id), ms);
    },
    dismiss(id, acted = false) {
      const n = get().notices.find((x) => x.id === id);
      if (!n) return;
      set({ notices: get().notices.filter((x) => x.id !== id) });
      if (!acted) n.onExpire?.();
    },
  };
}

export function resolvedTheme(t: Theme): 'light' | 'dark' {
  if (t !== 'system') return t;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
