// A scene's presenter as a rig, loaded by kind. The vector rig is the layered art of
// resources/presenters (rasterised once at the size it is drawn); each further kind of
// presenter is one more case here.
import { vectorRig, type PresenterRig } from '../../../shared/scene/index.js';
import { loadPresenterNode } from './assets.js';

/** Who speaks in a scene, as the worker loads it (resolved from the scene's presenterId by the queue). */
export type ScenePresenter = { kind: 'vector'; id: string };

/** `pixelHeight`: the art box's height in frame pixels (layers are rasterised at that size). */
export async function loadRig(presenter: ScenePresenter, pixelHeight: number): Promise<PresenterRig> {
  switch (presenter.kind) {
    case 'vector':
      return vectorRig(await loadPresenterNode(presenter.id, pixelHeight));
  }
}
