// The video encoder: ffmpeg with x264 settings for talking heads, fed whole yuv420p frames in
// Matroska on stdin (a frame only when it changed; the fps filter repeats it until the next) and
// the sound's PCM on a second pipe as it is spoken (the narration, or the mix with music).
import { availableParallelism } from 'node:os';
import type { Writable } from 'node:stream';
import { z } from 'zod';
import { OUTPUT_FPS } from '../../../shared/contract/index.js';
import { SPEECH_SAMPLE_RATE } from '../speech/speech.js';
import { runFfmpeg, type FfmpegRun } from './ffmpeg.js';
import { mkvFrameHeader, mkvHeader } from './mkv.js';

export const EncodeSettings = z.object({
  preset: z.string(),
  crf: z.number(),
  /** Extra x264 options (key=value:key=value), tuned for mostly-static talking heads. */
  x264Params: z.string().optional(),
  /** x264's threads (absent: x264's own choice, 1.5 per core). */
  threads: z.number().int().positive().optional(),
  /** Benchmark baseline: draw and pipe every full frame instead of only the changing regions. */
  fullFrames: z.boolean().optional(),
});
export type EncodeSettings = z.infer<typeof EncodeSettings>;

/**
 * x264 for talking heads: `superfast` with macroblock-tree rate control put back (it spends the
 * bits where the picture stays: background, body) and no B-frames: the file size of `veryfast`,
 * a better picture, less encoder time. Keyframes every 10 s; scene changes are a handful per
 * video, so no scenecut or weighted-prediction analysis is spent on every frame for them.
 */
export const DEFAULT_ENCODE: EncodeSettings = {
  preset: 'superfast', crf: 23, x264Params: 'keyint=300:min-keyint=30:scenecut=0:mbtree=1:rc-lookahead=10:bframes=0:weightp=0',
  threads: encoderThreads(availableParallelism()),
};

/**
 * x264 threads: at least 6. x264's own choice (1.5 per core) leaves small machines' cores idle
 * in part (its frame threads wait on each other's reference rows and on the next input frame);
 * the video is the same to the byte whatever the count.
 */
export function encoderThreads(cores: number): number {
  return Math.max(6, Math.ceil(cores * 1.5));
}

/** ffmpeg's output options for the video encoder (the engine's and the benchmark floor's). */
export function x264Args(e: EncodeSettings): string[] {
  return [
    ...(e.threads ? ['-threads', String(e.threads)] : []),
    '-c:v', 'libx264', '-preset', e.preset, '-crf', String(e.crf), ...(e.x264Params ? ['-x264-params', e.x264Params] : []),
  ];
}

/**
 * ffmpeg's output options for the audio (the engine's and the benchmark floor's): AAC at 44.1 kHz,
 * stereo (music under the voice) at 160k. The constant-quantiser coder: at these rates the same
 * spectrum as the default two-loop search, for far less CPU.
 */
export function aacArgs(channels: 1 | 2): string[] {
  return ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', channels === 2 ? '160k' : '128k', '-ar', '44100'];
}

export interface EncoderInput {
  width: number;
  height: number;
  /** Benchmark baseline: whole RGBA frames at a constant rate instead of changed yuv420p frames. */
  fullFrames: boolean;
  /** The PCM on the audio pipe (default: the narration as spoken, mono). */
  audio?: { rate: number; channels: 1 | 2 };
}

/** ffmpeg encoding to `outPath`, started before the first frame so its set-up overlaps speech. */
export class Encoder {
  readonly run: FfmpegRun;
  /** ffmpeg's exit seen as a value from the start (null: clean), so a failure while frames are prepared is never unhandled. */
  readonly failed: Promise<unknown>;
  readonly audio: Writable;
  private readonly vfr: boolean;
  private last: Buffer | null = null;
  /** Frames written (a repeated frame of a variable-rate stream is not). */
  sent = 0;

  constructor(input: EncoderInput, outPath: string, encode: EncodeSettings, signal: AbortSignal, private readonly release: (b: Buffer) => void, private readonly hold: (b: Buffer) => void) {
    const { width: W, height: H } = input;
    const audio = input.audio ?? { rate: SPEECH_SAMPLE_RATE, channels: 1 };
    const vfr = (this.vfr = !input.fullFrames);
    // Two frames queued between ffmpeg's reading thread and x264 (8 by default, each a whole
    // frame more at the peak for nothing: the engine composes a frame well within x264's time for one).
    const video = vfr
      ? ['-thread_queue_size', '2', '-f', 'matroska', '-i', 'pipe:0']
      : ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${W}x${H}`, '-framerate', String(OUTPUT_FPS), '-i', 'pipe:0'];
    const args = [
      '-y', ...video,
      '-f', 's16le', '-ar', String(audio.rate), '-ac', String(audio.channels), '-i', 'pipe:3',
      '-map', '0:v', '-map', '1:a', ...(vfr ? ['-vf', `fps=${OUTPUT_FPS}`] : []),
      ...x264Args(encode),
      '-pix_fmt', 'yuv420p', ...(vfr ? [] : ['-r', String(OUTPUT_FPS)]),
      ...aacArgs(audio.channels),
      '-movflags', '+faststart', '-f', 'mp4', outPath,
    ];
    this.run = runFfmpeg(args, signal, 'encoding the video', 1);
    this.failed = this.run.done.then(() => null, (e: unknown) => e);
    this.audio = this.run.extra[0]!;
    if (vfr) this.stdin.write(mkvHeader(W, H));
  }

  get stdin(): Writable {
    return this.run.proc.stdin!;
  }

  /** Writes frame `f` (variable rate: only when it is not the frame before); false when ffmpeg wants a pause. */
  send(buf: Buffer, f: number): boolean {
    if (this.vfr && buf === this.last) return true;
    this.last = buf;
    this.sent++;
    this.hold(buf);
    const stdin = this.stdin;
    if (!this.vfr) return stdin.write(buf, () => this.release(buf));
    // Header and frame leave in one writev: a write of its own would wake ffmpeg for 20 bytes.
    stdin.cork();
    stdin.write(mkvFrameHeader((f * 1000) / OUTPUT_FPS, buf.length));
    const ok = stdin.write(buf, () => this.release(buf));
    stdin.uncork();
    return ok;
  }

  /**
   * Ends the video at `frames` frames: the last frame once more one tick after the end, as the fps
   * filter emits a frame only when it sees the next one's time.
   */
  end(frames: number): void {
    if (this.vfr && this.last) {
      const end = this.last;
      this.last = null;
      this.send(end, frames);
    }
    this.stdin.end();
  }
}
