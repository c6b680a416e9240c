// The music tracks the app ships (resources/music/): listed for the music picker, and imported
// into the creator's media library on first use, so a render request names a track as any
// audio asset. A track already there (same name and size) is used again, not uploaded twice.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MusicTrackList, type Asset, type MusicTrack } from '../../shared/contract/index.js';
import type { RenderApiClient } from './api-client.js';
import { BridgeFailure } from './errors.js';

export async function readMusicTracks(resourcesDir: string): Promise<MusicTrack[]> {
  return MusicTrackList.parse(JSON.parse(await readFile(join(resourcesDir, 'music', 'tracks.json'), 'utf8'))).tracks;
}

/** The name a track has in the media library. */
export const trackAssetName = (t: MusicTrack) => `${t.name}.mp3`;

export async function importMusicTrack(resourcesDir: string, trackId: string, client: RenderApiClient, signal: AbortSignal): Promise<Asset> {
  const track = (await readMusicTracks(resourcesDir)).find((t) => t.id === trackId);
  if (!track) throw new BridgeFailure('not_found', `no built-in music track "${trackId}"`);
  const path = join(resourcesDir, 'music', track.file);
  const { size } = await stat(path);
  const name = trackAssetName(track);
  const { assets } = await client.listAssets({ kind: 'audio', q: name, limit: 20 });
  const known = assets.find((a) => a.name === name && a.sizeBytes === size);
  if (known) return known;
  return client.uploadAsset({ name, mediaType: 'audio/mpeg', sizeBytes: size, body: createReadStream(path), signal });
}
