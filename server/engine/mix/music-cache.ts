// Music decoded once: a track its first render decoded to the end (the decoder runs ahead of the
// mix, so a short track, the usual kind under a voice, is decoded whole) is kept in the engine's
// cache as PCM with its loudness, keyed by a hash of the file's bytes, and later renders play it
// from memory: no decoder process, nothing measured. A changed file hashes differently, so it is
// never served the old sound; the least recently used tracks beyond MUSIC_CACHE.tracks are removed.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { RenderMusic } from '../types.js';
import { DecodePass, MemoryPass, MIX_SAMPLE_RATE, MusicSource, trackLoudness } from './music-source.js';

export const MUSIC_CACHE = {
  /** Longer tracks are decoded at every render (as far as the video needs them) rather than stored. */
  maxSeconds: 180,
  tracks: 8,
} as const;

/** Bumped when the stored PCM or its loudness would come out differently. */
const FORMAT = 1;
const Entry = z.object({ format: z.literal(FORMAT), frames: z.number().int().positive(), loudness: z.number().nullable() });

async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha1');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** The music as the mix reads it: from the cache in `dir` when decoded before, else decoded (and stored once whole). */
export async function openMusic(music: Pick<RenderMusic, 'path' | 'durationSeconds'>, signal: AbortSignal, dir: string | null): Promise<MusicSource> {
  // (A track known to be too long to keep is not even hashed.)
  if (!dir || (music.durationSeconds ?? 0) > MUSIC_CACHE.maxSeconds) return new MusicSource(() => new DecodePass(music.path, signal), music.durationSeconds);
  const key = await fileHash(music.path);
  const files = { pcm: join(dir, `${key}.pcm`), entry: join(dir, `${key}.json`) };
  const hit = await readEntry(files);
  if (hit) return new MusicSource(() => new MemoryPass(hit.pcm), music.durationSeconds, hit.loudness);
  let whole: Int16Array | null = null;
  const keep = {
    maxFrames: MUSIC_CACHE.maxSeconds * MIX_SAMPLE_RATE,
    whole: (pcm: Int16Array) => {
      whole = pcm;
      store(dir, files, pcm).catch((e: unknown) => console.warn(`The decoded music could not be cached (${(e as Error).message ?? String(e)}); the next render decodes it again.`));
    },
  };
  // A loop plays the whole track kept by the first pass instead of decoding it again.
  return new MusicSource(() => (whole ? new MemoryPass(whole) : new DecodePass(music.path, signal, keep)), music.durationSeconds);
}

/**
 * Drops the decoded copy of the music file at `path` from the cache in `dir` (the file is about
 * to be deleted: nothing of it should outlive it). A file never decoded, or already gone, leaves
 * nothing to do.
 */
export async function forgetMusic(dir: string, path: string): Promise<void> {
  const key = await unlessMissing(() => fileHash(path));
  if (!key) return;
  // The entry first: without it the PCM beside it is never read.
  await rm(join(dir, `${key}.json`), { force: true });
  await rm(join(dir, `${key}.pcm`), { force: true });
}

/** `read()`, or null when the file is not there (not decoded before, or removed as least recently used meanwhile). */
async function unlessMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

async function readEntry(files: { pcm: string; entry: string }): Promise<{ pcm: Int16Array; loudness: number } | null> {
  const text = await unlessMissing(() => readFile(files.entry, 'utf8'));
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    if (e instanceof SyntaxError) return null; // a damaged entry: decoded again and stored anew
    throw e;
  }
  const entry = Entry.safeParse(json);
  if (!entry.success) return null; // another format: decoded again and stored anew
  const bytes = await unlessMissing(() => readFile(files.pcm));
  if (!bytes || bytes.length !== entry.data.frames * 4) return null;
  const now = new Date();
  await unlessMissing(() => utimes(files.entry, now, now)); // recently used: the last to be removed
  // (Copied only if the read's buffer is not aligned for 16-bit reads.)
  const pcm = bytes.byteOffset % 2 ? new Int16Array(Uint8Array.from(bytes).buffer) : new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  return { pcm, loudness: entry.data.loudness ?? -Infinity };
}

async function store(dir: string, files: { pcm: string; entry: string }, pcm: Int16Array): Promise<void> {
  await mkdir(dir, { recursive: true });
  const loudness = trackLoudness(pcm);
  const write = async (path: string, data: Uint8Array | string) => {
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, path);
  };
  await write(files.pcm, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  // The entry last: its presence says the PCM beside it is complete.
  await write(files.entry, JSON.stringify({ format: FORMAT, frames: pcm.length / 2, loudness: Number.isFinite(loudness) ? loudness : null }));
  const entries = (await readdir(dir)).filter((f) => f.endsWith('.json'));
  if (entries.length <= MUSIC_CACHE.tracks) return;
  const used = await Promise.all(entries.map(async (f) => ({ f, at: (await stat(join(dir, f))).mtimeMs })));
  used.sort((a, b) => b.at - a.at);
  for (const { f } of used.slice(MUSIC_CACHE.tracks)) {
    await rm(join(dir, f), { force: true });
    await rm(join(dir, f.replace(/\.json$/, '.pcm')), { force: true });
  }
}
