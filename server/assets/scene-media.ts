// A job's backgrounds and music as the engine reads them: each asset id resolved, for the job's
// owner, to a local file with its kind and size. An asset deleted or gone from storage by the
// time the job renders fails the job with `invalid_input` naming the scene (or the music).
import type { Brand, Music, Scene } from '../../shared/contract/index.js';
import { brandFont } from '../../shared/scene/fonts.js';
import { EngineError, type RenderBrand, type RenderMusic, type RenderScene } from '../engine/types.js';
import type { AssetStorage } from '../storage/asset-storage.js';
import type { AssetStore } from './asset-store.js';

export interface AssetAccess {
  store: AssetStore;
  files: AssetStorage;
}

export async function resolveSceneMedia(scenes: Scene[], userId: string, assets: AssetAccess | null): Promise<RenderScene[]> {
  return Promise.all(
    scenes.map(async (scene, i): Promise<RenderScene> => {
      const bg = scene.background;
      if (!bg) return { ...scene, media: null };
      const gone = (why: string) => new EngineError('invalid_input', `scene ${i + 1}: its background (asset ${bg.assetId}) ${why}; choose another and render again`);
      if (!assets) throw gone('cannot be read: this worker has no asset storage');
      const asset = await assets.store.get(bg.assetId, userId);
      if (!asset) throw gone('was deleted before the render');
      if (asset.kind === 'audio' || asset.kind === 'font') throw gone(`is ${asset.kind === 'audio' ? 'a sound' : 'a font'}, not a picture, clip or document`);
      const path = await assets.files.localPath(asset.id, 'content');
      if (!path) throw gone('is missing from storage');
      const { kind, mediaType, width, height, durationSeconds, pages } = asset;
      return { ...scene, media: { kind, path, mediaType, width, height, durationSeconds, pages } };
    }),
  );
}

/** The job's music as a local file the engine decodes. */
export async function resolveMusicMedia(music: Music, userId: string, assets: AssetAccess | null): Promise<RenderMusic> {
  const gone = (why: string) => new EngineError('invalid_input', `the music (asset ${music.assetId}) ${why}; choose another and render again`);
  if (!assets) throw gone('cannot be read: this worker has no asset storage');
  const asset = await assets.store.get(music.assetId, userId);
  if (!asset) throw gone('was deleted before the render');
  if (asset.kind !== 'audio') throw gone('is not a sound');
  const path = await assets.files.localPath(asset.id, 'content');
  if (!path) throw gone('is missing from storage');
  return { ...music, path, durationSeconds: asset.durationSeconds };
}

/**
 * Extension `brand`: the job's logo and font asset as local files. An asset gone by render time
 * fails the job with `invalid_input` naming it.
 */
export async function resolveBrandMedia(brand: Brand, userId: string, assets: AssetAccess | null): Promise<RenderBrand> {
  const local = async (assetId: string, what: string) => {
    const gone = (why: string) => new EngineError('invalid_input', `the brand's ${what} (asset ${assetId}) ${why}; choose another and render again`);
    if (!assets) throw gone('cannot be read: this worker has no asset storage');
    const asset = await assets.store.get(assetId, userId);
    if (!asset) throw gone('was deleted before the render');
    const path = await assets.files.localPath(asset.id, 'content');
    if (!path) throw gone('is missing from storage');
    return { asset, path };
  };
  let logo: RenderBrand['logo'] = null;
  if (brand.logo) {
    const { asset, path } = await local(brand.logo.assetId, 'logo');
    if (asset.kind !== 'image' || !asset.width || !asset.height) throw new EngineError('invalid_input', `the brand's logo (asset ${asset.id}) is not a picture`);
    logo = { path, width: asset.width, height: asset.height };
  }
  let font: RenderBrand['font'] = null;
  if (brand.font && !brandFont(brand.font)) {
    const { asset, path } = await local(brand.font, 'font');
    if (asset.kind !== 'font') throw new EngineError('invalid_input', `the brand's font (asset ${asset.id}) is not a font`);
    font = { assetId: asset.id, path };
  }
  return { brand, logo, font };
}
