// ffmpeg as a child process: where it is, running it with a cancel that kills it within a
// second, and turning its failures into messages a person understands.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { EngineError } from '../types.js';
import { decoderPath, ffmpegPath } from '../../media-binaries.js';
import { encoderExitError, encoderStartError } from './ffmpeg-errors.js';

export { decoderPath, ffmpegPath };

export interface FfmpegRun {
  proc: ChildProcess;
  /** Resolves when ffmpeg exits 0; rejects with an EngineError otherwise (or on cancel). */
  done: Promise<void>;
  /** Pipes ffmpeg reads as pipe:3, pipe:4, … */
  extra: Writable[];
  /** What ffmpeg writes to pipe:1, when asked for (a decoder's PCM). */
  stdout: Readable | null;
}

/** Starts ffmpeg; an abort kills it (SIGKILL: x264 may take longer than a second to stop on SIGTERM). */
export function runFfmpeg(args: string[], signal: AbortSignal | undefined, what: string, extraPipes = 0, readStdout = false): FfmpegRun {
  const bin = ffmpegPath();
  const pipes = Array.from({ length: extraPipes }, () => 'pipe' as const);
  const proc = spawn(bin, ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], { stdio: ['pipe', readStdout ? 'pipe' : 'ignore', 'pipe', ...pipes], windowsHide: true });
  const extra = pipes.map((_, i) => proc.stdio[3 + i] as Writable);
  for (const w of extra) w.on('error', () => undefined);
  let stderr = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  // stdin errors (EPIPE when ffmpeg dies early) surface through the exit code instead.
  proc.stdin!.on('error', () => undefined);
  const onAbort = () => proc.kill('SIGKILL');
  signal?.addEventListener('abort', onAbort, { once: true });
  const done = new Promise<void>((resolve, reject) => {
    proc.once('error', (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      reject(encoderStartError(bin, err));
    });
    proc.once('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(new EngineError('canceled', 'The render was canceled.'));
      if (code === 0) return resolve();
      reject(encoderExitError(what, sig ?? `exit code ${code}`, stderr));
    });
  });
  return { proc, done, extra, stdout: proc.stdout };
}
