// A scene's presenter as a rig, loaded by kind. The vector rig is the layered art of
// resources/presenters (rasterised once at the size it is drawn); each further kind of
// presenter is one more case here.
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { computeLayout, NEUTRAL_POSE, TEMPLATES, vectorRig, type PresenterRig } from '../../../shared/scene/index.js';
import { photoRig, type MakeCanvas, type PixelCtx } from '../../../shared/scene/photo-rig.js';
import type { PhotoPresenterSpec } from '../types.js';
import { loadPresenterNode } from './assets.js';

/** Who speaks in a scene, as the worker loads it (resolved from the scene's presenterId by the queue). */
export type ScenePresenter = { kind: 'vector'; id: string } | PhotoPresenterSpec;

/** The photo rig's offscreen canvases in Node. */
export const makeCanvasNode: MakeCanvas = (width, height) => {
  const canvas = createCanvas(width, height);
  // Skia's context has every call PixelCtx names; its ImageData adds fields the rig never reads.
  return { canvas, ctx: canvas.getContext('2d') as unknown as PixelCtx };
};

/** `pixelHeight`: the art box's height in frame pixels (layers are rasterised at that size). */
export async function loadRig(presenter: ScenePresenter, pixelHeight: number): Promise<PresenterRig> {
  switch (presenter.kind) {
    case 'vector':
      return vectorRig(await loadPresenterNode(presenter.id, pixelHeight));
    case 'photo': {
      const [portrait, mask] = await Promise.all([loadImage(presenter.portraitPath), presenter.maskPath ? loadImage(presenter.maskPath) : null]);
      return photoRig({ id: presenter.id, portrait, width: portrait.width, height: portrait.height, landmarks: presenter.landmarks, mask }, makeCanvasNode);
    }
  }
}

/** Side of a presenter's thumbnail, in pixels. */
const PRESENTER_THUMBNAIL_PX = 256;

/** A built-in presenter's head and shoulders on a transparent square (PNG), at rest. */
export async function drawPresenterPortrait(id: string): Promise<Buffer> {
  const side = PRESENTER_THUMBNAIL_PX;
  // The art box (400×480) scaled and lowered so the head and shoulders fill the square.
  const layout = computeLayout(TEMPLATES[0]!.id, { aspectRatio: '1:1', avatar: { scale: 1.2, x: 0.5, y: 0.6 } }, { width: side, height: side }, id);
  const rig = await loadRig({ kind: 'vector', id }, layout.presenter.height);
  const c = createCanvas(side, side);
  rig.draw(c.getContext('2d'), layout, NEUTRAL_POSE);
  return c.encode('png');
}
