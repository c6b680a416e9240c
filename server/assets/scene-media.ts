// A job's backgrounds and music as the engine reads them: each asset id resolved, for the job's
// owner, to a local file with its kind and size. An asset deleted or gone from storage by the
// time the job renders fails the job with `invalid_input` naming the scene (or the music).
import type { Music, Scene } from '../../shared/contract/index.js';
import { EngineError, type RenderMusic, type RenderScene } from '../engine/types.js';
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
      if (asset.kind === 'audio') throw gone('is a sound, not a picture, clip or document');
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
