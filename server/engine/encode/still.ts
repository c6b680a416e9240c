// One frame of a finished video as a JPEG, cut by ffmpeg from the stored MP4: a thumbnail made
// again at another time without rendering again.
import { spawn } from 'node:child_process';
import { ffmpegPath } from './ffmpeg.js';
import { encoderStartError } from './ffmpeg-errors.js';
import { EngineError } from '../types.js';

/** A frame of a short video is cut in well under a second; a stuck ffmpeg is killed after this. */
const STILL_TIMEOUT_MS = 60_000;
const MAX_JPEG_BYTES = 32 * 1024 * 1024;

/** The frame shown at `at` seconds (input seeking: ffmpeg decodes from the keyframe before it), as JPEG bytes. */
export function videoFrameJpeg(videoPath: string, at: number): Promise<Buffer> {
  const bin = ffmpegPath();
  const args = [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-protocol_whitelist', 'file',
    '-ss', at.toFixed(3), '-i', videoPath, '-frames:v', '1', '-an',
    // Full-range YUV is what a JPEG holds; quality 2 matches the engine's own thumbnails.
    '-vf', 'scale=out_range=full', '-pix_fmt', 'yuvj420p', '-q:v', '2', '-f', 'image2', '-c:v', 'mjpeg', 'pipe:1',
  ];
  return new Promise((resolve, reject) => {
    const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size <= MAX_JPEG_BYTES) chunks.push(d);
    });
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    const timer = setTimeout(() => proc.kill('SIGKILL'), STILL_TIMEOUT_MS);
    proc.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new EngineError('engine_unavailable', encoderStartError(bin, err).message));
    });
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      const jpeg = Buffer.concat(chunks);
      if (code === 0 && jpeg.length > 0 && size <= MAX_JPEG_BYTES) return resolve(jpeg);
      reject(new EngineError('encode_failed', `ffmpeg could not cut a frame at ${at} s (${signal ?? `exit code ${code}`}${stderr ? `: ${stderr.trim()}` : ''})`));
    });
  });
}
