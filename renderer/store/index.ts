// The renderer's one store: the document (with undo) at the top, every other slice under its
// own key. `createStudioStore()` makes a fresh one (each test's); the app uses `useStudio`.
// The per-slice hooks (`useJobs`, `useUi`, …) are views of the same store, for components
// that only read one slice.
import { temporal, type TemporalState } from 'zundo';
import { create, useStore, type StoreApi } from 'zustand';
import { createCatalogsSlice, type CatalogsState } from './catalogs.js';
import { createDocumentSlice, type DocumentSlice } from './document.js';
import { createDownloadsSlice, type DownloadsState } from './downloads.js';
import { createDraftsSlice, type DraftsState } from './drafts.js';
import { createEditorSlice, type EditorState } from './editor.js';
import { historyOptions, type Tracked } from './history.js';
import { createJobsSlice, type JobsState } from './jobs.js';
import { createMediaSlice, type MediaState } from './media.js';
import { createSettingsSlice, type SettingsState } from './settings.js';
import { sliceApi, type SliceKey } from './slice.js';
import { createUiSlice, type UiState } from './ui.js';

export interface StudioState extends DocumentSlice {
  catalogs: CatalogsState;
  downloads: DownloadsState;
  drafts: DraftsState;
  editor: EditorState;
  jobs: JobsState;
  media: MediaState;
  settings: SettingsState;
  ui: UiState;
}

type History = StoreApi<TemporalState<Tracked>>;

export function createStudioStore() {
  let history: History | undefined;
  const store = create<StudioState>()(
    temporal(
      (set, get, api) => {
        history = api.temporal as History;
        const slice = <K extends SliceKey>(key: K) => sliceApi(key, set, get, api);
        return {
          ...createDocumentSlice(set, get, () => history?.getState().clear()),
          catalogs: createCatalogsSlice(slice('catalogs')),
          downloads: createDownloadsSlice(slice('downloads')),
          drafts: createDraftsSlice(slice('drafts')),
          editor: createEditorSlice(slice('editor')),
          jobs: createJobsSlice(slice('jobs')),
          media: createMediaSlice(slice('media')),
          settings: createSettingsSlice(slice('settings')),
          ui: createUiSlice(slice('ui')),
        };
      },
      historyOptions(() => history!),
    ),
  );
  return Object.assign(store, {
    /** Stops the store's timers and its autosave (a test's store, a closed window). */
    dispose() {
      store.getState().editor.dispose();
      store.getState().jobs.dispose();
      store.getState().drafts.dispose();
    },
  });
}

export type StudioStore = ReturnType<typeof createStudioStore>;

/** The app's store. */
export const useStudio = createStudioStore();

export const undo = (): void => useStudio.temporal.getState().undo();
export const redo = (): void => useStudio.temporal.getState().redo();

/** A hook and getState/setState over one slice of a studio store. */
export function sliceView<K extends SliceKey>(store: StoreApi<StudioState>, key: K) {
  type S = StudioState[K];
  function useSlice(): S;
  function useSlice<U>(selector: (s: S) => U): U;
  function useSlice<U>(selector?: (s: S) => U) {
    return useStore(store, (s) => (selector ? selector(s[key]) : s[key]));
  }
  return Object.assign(useSlice, {
    getState: (): S => store.getState()[key],
    getInitialState: (): S => store.getInitialState()[key],
    setState: (patch: Partial<S>): void => store.setState((s) => ({ [key]: { ...s[key], ...patch } }) as Partial<StudioState>),
  });
}

export const useCatalogs = sliceView(useStudio, 'catalogs');
export const useDownloads = sliceView(useStudio, 'downloads');
export const useDrafts = sliceView(useStudio, 'drafts');
export const useEditor = sliceView(useStudio, 'editor');
export const useJobs = sliceView(useStudio, 'jobs');
export const useMedia = sliceView(useStudio, 'media');
export const useSettings = sliceView(useStudio, 'settings');
export const useUi = sliceView(useStudio, 'ui');
