// The template's own art, painted in code at the output size (shared/scene/backgrounds.ts).
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { drawBackground, type SceneLayout } from '../../../../shared/scene/index.js';
import { stillBackground, type OpenBackground } from './background.js';

export function paintTemplate(layout: SceneLayout): Canvas {
  const c = createCanvas(layout.size.width, layout.size.height);
  drawBackground(c.getContext('2d'), layout);
  return c;
}

export const openTemplate: OpenBackground = async ({ layout }) => stillBackground(paintTemplate(layout));
