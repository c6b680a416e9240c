// Which screen is showing, transient notices, and the theme (kept in localStorage: it is a
// preference of this browser/app window, not of a render API).
import { create } from 'zustand';

export type View = 'create' | 'jobs' | 'settings';
export type Theme = 'light' | 'dark' | 'system';

export interface Notice {
  id: number;
  kind: 'info' | 'error' | 'success';
  text: string;
  action?: { label: string; run(): void };
}

interface UiState {
  view: View;
  theme: Theme;
  notices: Notice[];
  setView(v: View): void;
  setTheme(t: Theme): void;
  notify(n: Omit<Notice, 'id'>, ms?: number): void;
  dismiss(id: number): void;
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

let nextId = 1;
export const useUi = create<UiState>((set, get) => ({
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
    set({ notices: [...get().notices.slice(-3), { ...n, id }] });
    if (ms > 0) setTimeout(() => get().dismiss(id), ms);
  },
  dismiss: (id) => set({ notices: get().notices.filter((n) => n.id !== id) }),
}));

export function resolvedTheme(t: Theme): 'light' | 'dark' {
  if (t !== 'system') return t;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}
