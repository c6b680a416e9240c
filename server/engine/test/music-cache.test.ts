// Decoded music kept between renders (mix/music-cache.ts): a track decoded once is played again
// from the cache, exactly as decoded and with no decoder at all; a file changed in place is never
// served the old sound.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { ffmpegPath } from '../encode/ffmpeg.js';
import { openMusic } from '../mix/music-cache.js';
import { MIX_SAMPLE_RATE } from '../mix/music-source.js';

const dir = mkdtempSync(join(tmpdir(), 'ps-music-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 3 s stereo MP3 of two tones, at `volume`. */
function track(path: string, hz: number, volume: number): void {
  execFileSync(ffmpegPath(), [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=3`, '-f', 'lavfi', '-i', `sine=frequency=${hz * 1.5}:duration=3`,
    '-filter_complex', `[0][1]amerge=inputs=2,volume=${volume}`, '-c:a', 'libmp3lame', '-b:a', '128k', path,
  ]);
}

const cache = join(dir, 'cache');
const entries = () => readdirSync(cache).filter((f) => f.endsWith('.json'));

/** The track's loudness and its first two seconds, as the mix reads them. */
async function play(path: string): Promise<{ lufs: number; pcm: Int16Array }> {
  const source = await openMusic({ path, durationSeconds: 3 }, new AbortController().signal, cache);
  try {
    const lufs = await source.loudness();
    return { lufs, pcm: await source.take(2 * MIX_SAMPLE_RATE) };
  } finally {
    source.close();
  }
}

it('plays a track decoded before from the cache, with no decoder; a file changed in place is decoded anew', async () => {
  const file = join(dir, 'theme.mp3');
  track(file, 440, 0.5);
  const first = await play(file);
  expect(first.lufs).toBeGreaterThan(-30);
  await vi.waitFor(() => expect(entries()).toHaveLength(1), { timeout: 10_000 });

  // No ffmpeg can start now: the second play comes from the cache alone, the same to the sample.
  const saved = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = join(dir, 'no-ffmpeg-here');
  let again: Awaited<ReturnType<typeof play>>;
  try {
    again = await play(file);
  } finally {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
  }
  expect(again.lufs).toBe(first.lufs);
  expect(Buffer.from(again.pcm.buffer).equals(Buffer.from(first.pcm.buffer))).toBe(true);

  // The same file name with other sound in it (quieter, other notes): the new sound, measured anew.
  track(file, 330, 0.1);
  const changed = await play(file);
  expect(first.lufs - changed.lufs).toBeGreaterThan(10);
  expect(Buffer.from(changed.pcm.buffer).equals(Buffer.from(first.pcm.buffer))).toBe(false);
  await vi.waitFor(() => expect(entries()).toHaveLength(2), { timeout: 10_000 });
}, 60_000);
