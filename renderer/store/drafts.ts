// The drafts sidebar: summaries, search, rename and delete. Drafts live on the privileged
// side (local files), so all of this works offline.
import type { DraftSummary } from '../../shared/bridge/index.js';
import { call, describeError } from '../lib/bridge.js';
import type { SliceApi } from './slice.js';

export interface DraftsState {
  items: DraftSummary[];
  q: string;
  loading: boolean;
  error: string | null;
  load(): Promise<void>;
  setQuery(q: string): void;
  /** Keeps the sidebar in step with the open draft without a round trip. */
  upsertLocal(d: DraftSummary): void;
  removeLocal(id: string): void;
  dispose(): void;
}

export function createDraftsSlice({ set, get }: SliceApi<DraftsState>): DraftsState {
  let queryTimer: ReturnType<typeof setTimeout> | undefined;
  let seq = 0;
  return {
    items: [],
    q: '',
    loading: false,
    error: null,
    async load() {
      const mine = ++seq;
      set({ loading: true });
      try {
        const q = get().q.trim();
        const items = await call('drafts.list', q ? { q } : {});
        if (mine === seq) set({ items, loading: false, error: null });
      } catch (e) {
        if (mine === seq) set({ loading: false, error: describeError(e) });
      }
    },
    setQuery(q) {
      set({ q });
      clearTimeout(queryTimer);
      queryTimer = setTimeout(() => void get().load(), 150);
    },
    upsertLocal(d) {
      const q = get().q.trim().toLowerCase();
      const rest = get().items.filter((i) => i.id !== d.id);
      if (q && !`${d.name} ${d.excerpt}`.toLowerCase().includes(q)) return set({ items: rest });
      set({ items: [d, ...rest] });
    },
    removeLocal(id) {
      set({ items: get().items.filter((i) => i.id !== id) });
    },
    dispose() {
      clearTimeout(queryTimer);
    },
  };
}
