// The scene actions the media library uses, in one place: the document store's
// (`useStudio`: the document, undo, the selected scene).
import type { DocumentScene } from '../../shared/contract/index.js';
import { useStudio as sceneStore } from './index.js';

// A live binding, not a copy taken at load: this module and index.js import each other (through
// media.ts), so useStudio may not be defined yet when this module runs.
export { sceneStore };

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
