// Where finished renders live. The local directory is the default; a shared directory or an
// object store can implement the same interface for a fleet of workers.
import { chmod, copyFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Stats } from 'node:fs';
import { OWNER_FILE_MODE } from './owner-only.js';

/** The file's stats, or null when it is not there (ENOENT, or ENOTDIR: its folder is not there); other failures throw. */
export function statIfPresent(path: string): Promise<Stats | null> {
  return stat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
    throw e;
  });
}

/** A render's files; `optional`: a caption file, absent for a job rendered with `captions: "none"`. */
export const OUTPUT_FILES = {
  video: { name: 'video.mp4', type: 'video/mp4', optional: false },
  captions: { name: 'captions.vtt', type: 'text/vtt; charset=utf-8', optional: true },
  thumbnail: { name: 'thumbnail.jpg', type: 'image/jpeg', optional: false },
} as const;
export type OutputFile = keyof typeof OUTPUT_FILES;

export interface StoredFile {
  size: number;
  /** Stable per published file (outputs never change after publishing). */
  etag: string;
}

export interface OutputStorage {
  /**
   * Moves the finished files of `workDir` into place for `jobId`, all at once (a reader never
   * sees a partial set). Returns the video's size. Throws if a file is missing.
   */
  publish(jobId: string, workDir: string): Promise<{ videoBytes: number }>;
  stat(jobId: string, file: OutputFile): Promise<StoredFile | null>;
  /** Where a published file lies on this machine (ffmpeg reads the video from there to make a new thumbnail). */
  localPath(jobId: string, file: OutputFile): string;
  /** A stream of the file, or of bytes start..end inclusive. */
  read(jobId: string, file: OutputFile, range?: { start: number; end: number }): Readable;
  remove(jobId: string): Promise<void>;
  /** Replaces one published file with `bytes` at once (a reader sees the old file or the new one). */
  replace(jobId: string, file: OutputFile, bytes: Buffer): Promise<void>;
}

/**
 * Moves a render's files from its work directory into a staging directory, checking each is
 * there and not empty. A work directory on another file system than the storage (a shared
 * mount) is copied instead.
 */
export async function stageOutputs(workDir: string, staging: string): Promise<void> {
  for (const { name, optional } of Object.values(OUTPUT_FILES)) {
    const from = join(workDir, name);
    const s = await statIfPresent(from);
    if (!s && optional) continue;
    if (!s?.isFile() || s.size === 0) throw new Error(`the render produced no ${name}`);
    await rename(from, join(staging, name)).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV') throw err;
      await copyFile(from, join(staging, name));
    });
    await chmod(join(staging, name), OWNER_FILE_MODE); // the encoder made it under the process's umask
  }
}
