// A scene in small: its own background's thumbnail (from the media library), else the template's
// look drawn by the scene code, with or without the presenter as the scene has it.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { outputSize, type RenderParams, type Template } from '../../shared/contract/index.js';
import type { DocumentScene } from '../../shared/contract/document.js';
import { COVER_FOCUS } from '../../shared/scene/backgrounds.js';
import { media } from '../canvas/pictures.js';
import { drawScene } from '../canvas/scene.js';
import { useSceneAssetsVersion } from './scene-assets-version.js';

export const THUMB_HEIGHT = 62;

export function SceneThumb({ scene, template, params }: { scene: DocumentScene; template: Template | null; params: RenderParams }) {
  const size = outputSize(params.aspectRatio);
  const width = Math.round((THUMB_HEIGHT * size.width) / size.height);
  const assetId = scene.background?.assetId;
  const thumb = useSyncExternalStore(media.subscribe, () => (assetId ? media.thumbnail(assetId) : undefined));
  if (assetId) {
    return (
      <span className="scene-thumb" style={{ width, height: THUMB_HEIGHT }} aria-hidden="true">
        {thumb?.value ? <img src={thumb.value} alt="" style={{ objectFit: scene.background!.fit, objectPosition: scene.background!.fit === 'cover' ? `${COVER_FOCUS.x * 100}% ${COVER_FOCUS.y * 100}%` : undefined }} draggable={false} /> : <span className="scene-thumb-wait">{thumb?.error ? '!' : ''}</span>}
      </span>
    );
  }
  return <TemplateLook template={template} params={params} presenter={scene.presenter} width={width} />;
}

function TemplateLook({ template, params, presenter, width }: { template: Template | null; params: RenderParams; presenter: boolean; width: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const assetsVersion = useSceneAssetsVersion();
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const size = outputSize(params.aspectRatio);
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(THUMB_HEIGHT * dpr);
    ctx.setTransform((width * dpr) / size.width, 0, 0, (THUMB_HEIGHT * dpr) / size.height, 0, 0);
    drawScene(ctx, { template, params, width: size.width, height: size.height, presenter });
  }, [template, params, presenter, width, assetsVersion]);
  return <canvas ref={ref} className="scene-thumb" style={{ width, height: THUMB_HEIGHT }} aria-hidden="true" />;
}
