// A template thumbnail drawn by the scene code into a small canvas (no network, no image
// files). Drawn when the browser is idle, so the editor is interactive first; until then a
// placeholder of the frame's shape holds its place.
import { useEffect, useRef, useState } from 'react';
import type { AspectRatio, Template } from '../../shared/contract/index.js';
import { outputSize, templatePlacement } from '../../shared/contract/index.js';
import { drawScene } from '../canvas/scene.js';
import { useSceneAssetsVersion } from './scene-assets-version.js';

const whenIdle = (cb: () => void): (() => void) => {
  if ('requestIdleCallback' in window) {
    const h = requestIdleCallback(cb, { timeout: 500 });
    return () => cancelIdleCallback(h);
  }
  const h = setTimeout(cb, 50);
  return () => clearTimeout(h);
};

export function TemplateThumb({ template, aspectRatio, width = 160 }: { template: Template; aspectRatio: AspectRatio; width?: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const size = outputSize(aspectRatio);
  const height = Math.round((width * size.height) / size.width);
  const assetsVersion = useSceneAssetsVersion();
  const [drawn, setDrawn] = useState(false);
  useEffect(
    () =>
      whenIdle(() => {
        const canvas = ref.current;
        const ctx = canvas?.getContext('2d');
        if (!canvas || !ctx) return;
        const dpr = window.devicePixelRatio || 1;
        canvas.width = Math.round(width * dpr);
        canvas.height = Math.round(height * dpr);
        // Output coordinates scaled down: the thumbnail is the video's frame in small.
        ctx.setTransform((width * dpr) / size.width, 0, 0, (height * dpr) / size.height, 0, 0);
        drawScene(ctx, { template, params: { aspectRatio, avatar: templatePlacement(template, aspectRatio) }, width: size.width, height: size.height });
        setDrawn(true);
      }),
    [template, aspectRatio, width, height, size.width, size.height, assetsVersion],
  );
  return <canvas ref={ref} className="thumb" data-state={drawn ? 'drawn' : 'loading'} style={{ width, height, aspectRatio: `${size.width} / ${size.height}` }} aria-hidden="true" />;
}
