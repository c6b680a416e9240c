// The slices pattern over one bound store: every slice but the document lives under its own key
// (`jobs`, `drafts`, …), so slices keep short names (`load`, `q`) without clashing, and a slice's
// actions see only their own part through `set`/`get`, the rest through `root`.
import type { StoreApi } from 'zustand';
import type { StudioState } from './index.js';

export type SliceKey = 'catalogs' | 'downloads' | 'drafts' | 'editor' | 'jobs' | 'media' | 'settings' | 'ui';

export interface SliceApi<T> {
  set(patch: Partial<T> | ((s: T) => Partial<T>)): void;
  get(): T;
  /** The whole store (other slices, the document). */
  root(): StudioState;
  store: StoreApi<StudioState>;
}

export function sliceApi<K extends SliceKey>(
  key: K,
  set: StoreApi<StudioState>['setState'],
  get: () => StudioState,
  store: StoreApi<StudioState>,
): SliceApi<StudioState[K]> {
  return {
    set: (patch) =>
      set((s) => ({ [key]: { ...s[key], ...(typeof patch === 'function' ? patch(s[key]) : patch) } }) as Partial<StudioState>),
    get: () => get()[key],
    root: get,
    store,
  };
}
