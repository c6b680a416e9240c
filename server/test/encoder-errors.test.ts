// What a failed encode tells the creator: the cause in words, never a path on the render server
// or ffmpeg's stderr (that stays on the error's `detail`, for the server log). Real ffmpeg runs.
import { afterEach, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../engine/encode/ffmpeg.js';
import type { EncoderError } from '../engine/encode/ffmpeg-errors.js';
import { EngineError } from '../engine/types.js';

const PATHLIKE = /(^|[\s'"(:])\/[\w.-]+\/|[A-Za-z]:\\/;
const clip = ['-f', 'lavfi', '-i', 'color=c=navy:s=64x36:r=30:d=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

async function failure(args: string[]): Promise<EncoderError> {
  const run = runFfmpeg(args, undefined, 'encoding the video');
  run.proc.stdin!.end();
  const err = await run.done.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(EngineError);
  return err as EncoderError;
}

const savedPath = process.env.FFMPEG_PATH;
afterEach(() => {
  if (savedPath === undefined) delete process.env.FFMPEG_PATH;
  else process.env.FFMPEG_PATH = savedPath;
});

describe('encoder failures', () => {
  it('names a full disk without the file it was writing', async () => {
    const err = await failure(['-y', ...clip, '-f', 'mp4', '/dev/full']); // every write: ENOSPC
    expect(err.code).toBe('encode_failed');
    expect(err.message).toMatch(/no space left on the render disk/);
    expect(err.message).not.toMatch(PATHLIKE);
    expect(err.detail).toMatch(/No space left on device/); // for the log
  });

  it('says the encoder failed, without the paths in its stderr', async () => {
    const err = await failure(['-y', '-i', '/srv/data/work/job_x/.scene.part.mp4', '-f', 'mp4', '/srv/data/work/job_x/out.mp4']);
    expect(err.message).toMatch(/the encoder failed/i);
    expect(err.message).not.toMatch(PATHLIKE);
    expect(err.detail).toMatch(/job_x/);
  });

  it('names a missing encoder without where it was looked for', async () => {
    process.env.FFMPEG_PATH = '/opt/secret-place/bin/ffmpeg';
    const err = await failure(['-version']);
    expect(err.message).toMatch(/not installed/);
    expect(err.message).not.toMatch(/secret-place/);
    expect(err.detail).toMatch(/secret-place/);
  });
});
