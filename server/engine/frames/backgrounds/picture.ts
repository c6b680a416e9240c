// A decoded picture (an image, a document page) painted once at the output size by the drawing
// routine the preview shares (drawBackground: fit cover or contain, letterbox bars).
import { createCanvas, type Canvas, type Image } from '@napi-rs/canvas';
import { drawBackground, type SceneLayout } from '../../../../shared/scene/index.js';
import type { SceneBackground } from '../../../../shared/contract/index.js';

export function paintPicture(layout: SceneLayout, image: Canvas | Image, fit: SceneBackground['fit']): Canvas {
  const c = createCanvas(layout.size.width, layout.size.height);
  const ctx = c.getContext('2d');
  ctx.imageSmoothingQuality = 'high';
  drawBackground(ctx, layout, { image, width: image.width, height: image.height, fit });
  return c;
}
