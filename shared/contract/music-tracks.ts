// The music tracks the app ships (resources/music/tracks.json), offered beside the media
// library's sounds. A track is imported into the creator's media library on first use, so a
// render request names it as any audio asset (docs/render-api.md).
import { z } from 'zod';

export const MusicTrack = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  name: z.string().min(1).max(100),
  /** The file next to tracks.json. */
  file: z.string().regex(/^[a-z0-9-]{1,40}\.mp3$/),
  durationSeconds: z.number().positive(),
});
export type MusicTrack = z.infer<typeof MusicTrack>;
export const MusicTrackList = z.object({ tracks: z.array(MusicTrack) });
export type MusicTrackList = z.infer<typeof MusicTrackList>;
