// A presenter's head and shoulders over the chosen template's look, drawn by the scene code
// (the same art the video shows); the silhouette until the art has loaded. A photo presenter
// shows its face as the render API crops it (its thumbnail, through the app's media URL).
import { useEffect, useRef } from 'react';
import type { Template } from '../../shared/contract/index.js';
import { drawScene } from '../canvas/scene.js';
import { useSceneAssetsVersion } from './scene-assets-version.js';

/** The square the thumbnail draws: a close-up of the presenter. */
const SIDE = 256;
const CLOSE_UP = { aspectRatio: '1:1' as const, avatar: { scale: 1.2, x: 0.5, y: 0.6 } };

export function PresenterThumb({ presenterId, template, size = 72, photoUrl }: { presenterId: string; template: Template | null; size?: number; photoUrl?: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const assetsVersion = useSceneAssetsVersion();
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx || photoUrl) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(size * dpr);
    canvas.height = Math.round(size * dpr);
    ctx.setTransform((size * dpr) / SIDE, 0, 0, (size * dpr) / SIDE, 0, 0);
    drawScene(ctx, { template, params: CLOSE_UP, width: SIDE, height: SIDE, presenterId });
  }, [presenterId, template, size, assetsVersion, photoUrl]);
  if (photoUrl) return <img src={photoUrl} className="thumb presenter-thumb" style={{ width: size, height: size }} alt="" />;
  return <canvas ref={ref} className="thumb presenter-thumb" style={{ width: size, height: size }} aria-hidden="true" />;
}
