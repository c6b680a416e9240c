// The scene actions the media library uses, in one place. They belong to the document store
// (`useStudio`: the document, undo, the selected scene); until that store is on this branch a
// stand-in with the same names and shape plays its part, so pointing `sceneStore` at
// `useStudio` is the whole change when they meet.
import { create } from 'zustand';
import { blankScene, type DocumentScene, type VideoDocument } from '../../shared/contract/index.js';

export interface SceneState {
  document: Pick<VideoDocument, 'scenes'>;
  selectedSceneId: string | null;
  /** Inserts at `index` (the end when absent) and selects the first inserted. */
  insertScenes(scenes: DocumentScene[], index?: number): void;
  updateScene(id: string, patch: Partial<Omit<DocumentScene, 'id'>>): void;
  selectScene(id: string): void;
}

/** The stand-in: one blank scene, selected. */
export function createSceneStandIn() {
  const first = blankScene();
  return create<SceneState>()((set) => ({
    document: { scenes: [first] },
    selectedSceneId: first.id,
    insertScenes: (scenes, index) =>
      set((s) => {
        const all = [...s.document.scenes];
        all.splice(index ?? all.length, 0, ...scenes);
        return { document: { ...s.document, scenes: all }, selectedSceneId: scenes[0]?.id ?? s.selectedSceneId };
      }),
    updateScene: (id, patch) =>
      set((s) => ({ document: { ...s.document, scenes: s.document.scenes.map((sc) => (sc.id === id ? { ...sc, ...patch } : sc)) } })),
    selectScene: (id) => set({ selectedSceneId: id }),
  }));
}

export const sceneStore = createSceneStandIn();

export const useSelectedSceneId = (): string | null => sceneStore((s) => s.selectedSceneId);

export function updateScene(id: string, patch: Partial<Omit<DocumentScene, 'id'>>): void {
  sceneStore.getState().updateScene(id, patch);
}

export const sceneCount = (): number => sceneStore.getState().document.scenes.length;

/** A scene with nothing in it yet: no text, no background of its own. */
export const isEmptyScene = (s: DocumentScene): boolean => !s.text.trim() && s.background === null;

/** True when the selected scene is still empty (new scenes take its place instead of following it). */
export function selectedIsEmpty(): boolean {
  const s = sceneStore.getState();
  const sel = s.document.scenes.find((sc) => sc.id === s.selectedSceneId);
  return !!sel && isEmptyScene(sel);
}

/**
 * Places new scenes after the selected one (at the end when none is), the first selected.
 * A selected scene that is still empty takes the first new scene's content, so importing into a
 * fresh draft leaves no blank scene in front.
 */
export function placeScenes(scenes: DocumentScene[]): void {
  const s = sceneStore.getState();
  if (!scenes.length) return;
  const at = s.document.scenes.findIndex((sc) => sc.id === s.selectedSceneId);
  if (at >= 0 && selectedIsEmpty()) {
    const [first, ...rest] = scenes;
    const { id: _id, ...content } = first!;
    const kept = s.selectedSceneId!;
    s.updateScene(kept, content);
    if (rest.length) s.insertScenes(rest, at + 1);
    s.selectScene(kept);
    return;
  }
  s.insertScenes(scenes, at < 0 ? s.document.scenes.length : at + 1);
}
