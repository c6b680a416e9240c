// The renderer's preview drawing (renderer/canvas/scene.ts, as the editor's canvas and the
// template thumbnails call it), built by Vite for preview-parity.test.ts to call in Chromium.
import type { RenderParams, Template } from '../../../shared/contract/index.js';
import { drawBackground } from '../../../shared/scene/index.js';
import { drawScene, preloadScene, sceneLayout } from '../../../renderer/canvas/scene.js';

/** The preview as PNG, and (background: true) Chromium's drawing of its background alone. */
async function previewPng(template: Template, params: RenderParams, width: number, height: number, caption: string, background: boolean): Promise<string> {
  await preloadScene([template.id]);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d')!;
  if (background) drawBackground(ctx, sceneLayout(template, params, width, height));
  else drawScene(ctx, { template, params, width, height, caption });
  return canvas.toDataURL('image/png');
}

(window as unknown as { previewPng: typeof previewPng }).previewPng = previewPng;
