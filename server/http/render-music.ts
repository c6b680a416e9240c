// Extension `sound`: a render request's music checked against the caller's assets and resolved
// into the Job's `music` (every field filled). Each problem is a detail naming its field.
import { SOUND_LIMITS, type ErrorDetail, type Music, type MusicInput } from '../../shared/contract/index.js';
import type { AssetStore } from '../assets/asset-store.js';

/** The music resolved, null for none, undefined when it has a problem (in `details`). */
export async function resolveMusic(
  input: MusicInput | undefined,
  ctx: { assets: AssetStore; userId: string },
  details: ErrorDetail[],
): Promise<Music | null | undefined> {
  if (!input) return null;
  const asset = await ctx.assets.get(input.assetId, ctx.userId);
  if (!asset) {
    details.push({ path: 'music.assetId', message: `no asset "${input.assetId}" of yours; see GET /api/assets` });
    return undefined;
  }
  if (asset.kind !== 'audio') {
    details.push({ path: 'music.assetId', message: `"${asset.name}" is ${/^[aeiou]/.test(asset.kind) ? 'an' : 'a'} ${asset.kind}; music is a sound (MP3, WAV, AAC or Ogg)` });
    return undefined;
  }
  return { assetId: asset.id, volume: input.volume ?? SOUND_LIMITS.musicVolumeDefault, duck: input.duck ?? SOUND_LIMITS.musicDuckDefault };
}
