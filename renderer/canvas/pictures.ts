// What the preview needs of the creator's media, loaded once each and shared: an asset's
// record (`assets.get`), its thumbnail URL, and a scene background decoded as the video will
// use it: a picture as an image, a clip's frame at the scene's start offset, a document's
// page rendered by pdf.js. Listeners hear when something arrives, so canvases redraw.
import { SceneBackground, type Asset } from '../../shared/contract/index.js';
import type { BackgroundPicture } from '../../shared/scene/backgrounds.js';
import { assetFontFamily } from '../../shared/scene/fonts.js';
import { call, describeError } from '../lib/bridge.js';
import { renderDocumentPage } from '../lib/pdf-import.js';

export type Picture = Omit<BackgroundPicture, 'fit'>;
export type Loaded<T> = { value: T; error: null } | { value: null; error: string } | undefined;

/** A keyed cache of one async answer per key; `get` starts the load and answers undefined until it is in. */
export function createLoader<T>(load: (key: string) => Promise<T>) {
  const entries = new Map<string, Loaded<T> | 'loading'>();
  const listeners = new Set<() => void>();
  return {
    get(key: string): Loaded<T> {
      const e = entries.get(key);
      if (e === 'loading') return undefined;
      if (e) return e;
      entries.set(key, 'loading');
      load(key).then(
        (value) => entries.set(key, { value, error: null }),
        (err: unknown) => entries.set(key, { value: null, error: describeError(err) }),
      ).finally(() => listeners.forEach((l) => l()));
      return undefined;
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Loader<T> = ReturnType<typeof createLoader<T>>;

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((ok, fail) => {
    const img = new Image();
    img.onload = () => ok(img);
    img.onerror = () => fail(new Error('the picture could not be loaded'));
    img.src = url;
  });
}

/** A clip's frame at `at` seconds, copied to a canvas (the element is let go). */
function videoFrame(url: string, at: number): Promise<Picture> {
  return new Promise((ok, fail) => {
    const v = document.createElement('video');
    v.muted = true;
    v.preload = 'auto';
    v.playsInline = true;
    v.onerror = () => fail(new Error('the clip could not be loaded'));
    v.onloadedmetadata = () => {
      // Past the end, a clip holds its last frame (as the video does when it does not loop).
      v.currentTime = Math.min(at, Math.max(0, v.duration - 0.05));
    };
    v.onseeked = () => {
      const c = document.createElement('canvas');
      c.width = v.videoWidth;
      c.height = v.videoHeight;
      c.getContext('2d')?.drawImage(v, 0, 0);
      v.removeAttribute('src');
      v.load();
      ok({ image: c, width: c.width, height: c.height });
    };
    v.src = url;
  });
}

export function createMediaCache() {
  const assets = createLoader((id) => call('assets.get', { id }));
  const thumbnails = createLoader(async (id) => (await call('media.assetUrl', { assetId: id, kind: 'thumbnail' })).url);
  const pictures = createLoader(async (key): Promise<Picture> => {
    const bg = SceneBackground.parse(JSON.parse(key));
    const asset = await call('assets.get', { id: bg.assetId });
    const { url } = await call('media.assetUrl', { assetId: bg.assetId, kind: 'content' });
    if (asset.kind === 'video') return videoFrame(url, bg.trimStart ?? 0);
    if (asset.kind === 'document') {
      const page = await renderDocumentPage(url, bg.page ?? 1);
      return { image: page, width: page.width, height: page.height };
    }
    if (asset.kind === 'image') {
      const img = await loadImage(url);
      return { image: img, width: img.naturalWidth, height: img.naturalHeight };
    }
    throw new Error(`${asset.name} is ${asset.kind}, not a picture`);
  });
  // A brand's font file, added to the page's fonts under the family shared/scene names it by.
  // Where the page's CSP loads no font from the media URL (the desktop's media protocol), the
  // load fails, is kept as this entry's error, and the preview keeps the template's font.
  const fonts = createLoader(async (id): Promise<true> => {
    const { url } = await call('media.assetUrl', { assetId: id, kind: 'content' });
    const face = new FontFace(assetFontFamily(id), `url(${JSON.stringify(url)})`);
    document.fonts.add(await face.load());
    return true;
  });
  return {
    asset: (id: string): Loaded<Asset> => assets.get(id),
    /** A font asset, once the page can draw with it. */
    font: (id: string): Loaded<true> => fonts.get(id),
    thumbnail: (id: string): Loaded<string> => thumbnails.get(id),
    /** The decoded background of a scene (what differs between two scenes over the same asset is in the key). */
    picture: (bg: SceneBackground): Loaded<Picture> => pictures.get(JSON.stringify({ assetId: bg.assetId, page: bg.page, trimStart: bg.trimStart })),
    subscribe(listener: () => void): () => void {
      const offs = [assets.subscribe(listener), thumbnails.subscribe(listener), pictures.subscribe(listener), fonts.subscribe(listener)];
      return () => offs.forEach((off) => off());
    },
  };
}

/** The app's media cache. */
export const media = createMediaCache();
export type MediaCache = typeof media;
