// The creator's photo presenters as the preview draws them: the engine's photo rig
// (shared/scene/photo-rig.ts) on the page's canvases. The portrait and its cut-out mask come
// through the app's media URLs (the privileged side adds the key), loaded as CORS images so the
// rig's canvases stay readable (the desktop's media scheme allows the app's origin). Each loads
// once; listeners hear when one arrives or fails.
import type { Presenter } from '../../shared/contract/index.js';
import { photoRig, type MakeCanvas, type PhotoRig, type PhotoSource } from '../../shared/scene/photo-rig.js';
import { call } from '../lib/bridge.js';

type Parts = NonNullable<Presenter['portrait']>;

const parts = new Map<string, Parts>();
const rigs = new Map<string, PhotoRig>();
const loading = new Set<string>();
const failed = new Map<string, string>();
const listeners = new Set<() => void>();

/** The browser's offscreen canvases, read back often (the rig keeps its still picture's pixels). */
const makeCanvas: MakeCanvas = (width, height) => {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('this page cannot draw on a canvas');
  return { canvas, ctx };
};

/** The API's presenters as the catalog lists them: the photo ones (with their parts) become drawable. */
export function knowPresenters(list: readonly Presenter[]): void {
  for (const p of list) {
    const had = parts.get(p.id);
    if (!p.portrait) continue;
    // Made again under the same id cannot happen (ids are random); a changed mask is a new look.
    if (had && had.maskAssetId !== p.portrait.maskAssetId) rigs.delete(p.id);
    parts.set(p.id, p.portrait);
  }
}

export const isPhotoPresenter = (id: string | undefined): boolean => !!id && parts.has(id);

export function onPhotoRig(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** An asset's picture as a bitmap, through the app's media URL (CORS-clean, so the rig can read it back). */
export async function loadAssetBitmap(assetId: string): Promise<ImageBitmap> {
  const { url } = await call('media.assetUrl', { assetId, kind: 'content' });
  const img = new Image();
  img.crossOrigin = 'anonymous';
  img.src = url;
  try {
    await img.decode();
  } catch {
    // decode() says only "EncodingError": the cause (not found, not a picture) is in the media log.
    throw new Error('the picture could not be read');
  }
  return createImageBitmap(img);
}

/** Builds a rig from a portrait (and mask) already in hand: the dialog's looks before the presenter exists. */
export function photoRigOf(id: string, portrait: ImageBitmap, mask: ImageBitmap | null, landmarks: PhotoSource['landmarks']): PhotoRig {
  return photoRig({ id, portrait, width: portrait.width, height: portrait.height, landmarks, mask }, makeCanvas);
}

/** The photo presenter's rig once loaded; null while it loads (or when it could not: `photoRigError`). */
export function photoPresenterRig(id: string): PhotoRig | null {
  const have = rigs.get(id);
  if (have) return have;
  const p = parts.get(id);
  if (!p || loading.has(id) || failed.has(id)) return null;
  loading.add(id);
  Promise.all([loadAssetBitmap(p.assetId), p.maskAssetId ? loadAssetBitmap(p.maskAssetId) : null])
    .then(([portrait, mask]) => rigs.set(id, photoRigOf(id, portrait, mask, p.landmarks)))
    .catch((e: unknown) => {
      // The preview then shows the silhouette in its place; the video is the engine's.
      failed.set(id, e instanceof Error ? e.message : String(e));
      console.warn(`The photo presenter ${id} could not be drawn: ${failed.get(id)}`);
    })
    .finally(() => {
      loading.delete(id);
      listeners.forEach((l) => l());
    });
  return null;
}
