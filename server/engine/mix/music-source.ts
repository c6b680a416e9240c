// The music as stereo PCM at the mix's rate, as long as the video needs it: ffmpeg decodes the
// asset (read as the mix asks for it, so a long track is never held whole), or a track decoded
// before comes from the cache (music-cache.ts); when the track ends it is played again from the
// start and the two passes crossfade, so a loop never clicks.
import type { Readable } from 'node:stream';
import { EngineError } from '../types.js';
import { runFfmpeg, type FfmpegRun } from '../encode/ffmpeg.js';
import { StereoLoudness } from '../speech/loudness.js';

/** The mix's sample rate (CD and AAC's usual rate: music keeps its highs). */
export const MIX_SAMPLE_RATE = 44100;
/** The longest loop crossfade (seconds); a short track crossfades over a quarter of its length. */
const LOOP_CROSSFADE_SECONDS = 1;
/** Music whose loudness is measured before the first sample is mixed (seconds). */
const MEASURE_SECONDS = 20;

/** Stereo frames waiting to be taken, as a list of interleaved pieces. */
class FrameQueue {
  private pieces: Int16Array[] = [];
  frames = 0;

  push(piece: Int16Array): void {
    if (!piece.length) return;
    this.pieces.push(piece);
    this.frames += piece.length / 2;
  }

  /** The first `n` frames (fewer when fewer are queued), taken out; read-only (a view of a queued piece where one holds them all). */
  take(n: number): Int16Array {
    const count = Math.min(n, this.frames);
    const first = this.pieces[0];
    if (first && first.length >= count * 2) {
      const out = first.subarray(0, count * 2);
      if (first.length === count * 2) this.pieces.shift();
      else this.pieces[0] = first.subarray(count * 2);
      this.frames -= count;
      return out;
    }
    const out = new Int16Array(count * 2);
    let at = 0;
    while (at < out.length) {
      const p = this.pieces[0]!;
      const want = out.length - at;
      if (p.length <= want) {
        out.set(p, at);
        at += p.length;
        this.pieces.shift();
      } else {
        out.set(p.subarray(0, want), at);
        this.pieces[0] = p.subarray(want);
        at += want;
      }
    }
    this.frames -= count;
    return out;
  }

}

function concat(pieces: readonly Int16Array[], length: number): Int16Array {
  const out = new Int16Array(length);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A track's loudness (LUFS, BS.1770 over both channels) as it is read: of its first MEASURE_SECONDS. */
class StartLoudness {
  private readonly meter = new StereoLoudness(MIX_SAMPLE_RATE);
  private left = MEASURE_SECONDS * MIX_SAMPLE_RATE * 2;

  push(piece: Int16Array): void {
    if (this.left <= 0) return;
    // (As floats: the meter's loop then sees one kind of array, the mix's.)
    this.meter.push(new Float32Array(piece.length > this.left ? piece.subarray(0, this.left) : piece));
    this.left -= piece.length;
  }

  get full(): boolean {
    return this.left <= 0;
  }

  loudness(): number {
    return this.meter.loudness();
  }
}

/** The loudness of a whole track held in memory, as MusicSource.loudness reads it while decoding. */
export function trackLoudness(pcm: Int16Array): number {
  const m = new StartLoudness();
  m.push(pcm);
  return m.loudness();
}

/** Decoded audio a pass may hold before ffmpeg is paused (seconds). */
const DECODE_AHEAD_SECONDS = 40;

/** One play of the whole track, piece by piece. */
export interface TrackPass {
  /** The next frames (interleaved stereo), or null at the end of the track. */
  next(): Promise<Int16Array | null>;
  /** The end was reached. */
  readonly ended: boolean;
  /** Frames handed out so far. */
  readonly frames: number;
  close(): void;
}

/** A track held in memory, played in pieces of a second. */
export class MemoryPass implements TrackPass {
  ended = false;
  frames = 0;

  constructor(private readonly pcm: Int16Array) {}

  next(): Promise<Int16Array | null> {
    const at = this.frames * 2;
    if (at >= this.pcm.length) {
      this.ended = true;
      return Promise.resolve(null);
    }
    const piece = this.pcm.subarray(at, at + MIX_SAMPLE_RATE * 2);
    this.frames += piece.length / 2;
    return Promise.resolve(piece);
  }

  close(): void {}
}

/**
 * One decode of the whole track. ffmpeg runs ahead of the mix (up to DECODE_AHEAD_SECONDS):
 * paced by the mix's reads instead, a busy machine made every read wait for ffmpeg to be
 * scheduled again, and the first frame waited seconds for the music to be measured.
 */
export class DecodePass implements TrackPass {
  private readonly run: FfmpegRun;
  private readonly queue: Int16Array[] = [];
  private queued = 0;
  private odd: Buffer | null = null;
  private streamEnded = false;
  private wake: (() => void) | null = null;
  ended = false;
  private readonly failure: Promise<Error | null>;
  frames = 0;
  /** Everything decoded, while it is worth keeping (`keep`). */
  private kept: Int16Array[] | null;
  private keptFrames = 0;

  /** `keep`: the whole track, once decoded to its end, is handed to `whole` unless longer than `maxFrames`. */
  constructor(path: string, signal: AbortSignal, private readonly keep?: { maxFrames: number; whole: (pcm: Int16Array) => void }) {
    this.kept = keep ? [] : null;
    this.run = runFfmpeg(['-i', path, '-vn', '-f', 's16le', '-ac', '2', '-ar', String(MIX_SAMPLE_RATE), 'pipe:1'], signal, 'decoding the music', 0, true);
    // Kept as a value: read when the stream ends; a source closed before then never needs it.
    this.failure = this.run.done.then(() => null, (e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    const out = this.run.stdout as Readable;
    out.on('data', (b: Buffer) => this.take(b));
    out.once('end', () => this.notify((this.streamEnded = true)));
    // Decoded to the end without a failure: the whole track, if kept.
    if (keep) void this.failure.then((failed) => failed || !this.kept || !this.keptFrames ? undefined : keep.whole(concat(this.kept, this.keptFrames * 2)));
    out.once('error', () => this.notify((this.streamEnded = true)));
  }

  private take(chunk: Buffer): void {
    let bytes = chunk;
    if (this.odd) {
      bytes = Buffer.concat([this.odd, bytes]);
      this.odd = null;
    }
    const whole = bytes.length - (bytes.length % 4);
    if (whole < bytes.length) this.odd = Buffer.from(bytes.subarray(whole));
    if (!whole) return;
    // A copy: the stream's buffer may not be aligned for 16-bit reads.
    const pcm = new Int16Array(whole / 2);
    Buffer.from(pcm.buffer).set(bytes.subarray(0, whole));
    this.queue.push(pcm);
    this.queued += pcm.length / 2;
    if (this.kept) {
      this.kept.push(pcm);
      this.keptFrames += pcm.length / 2;
      if (this.keptFrames > this.keep!.maxFrames) this.kept = null;
    }
    if (this.queued > DECODE_AHEAD_SECONDS * MIX_SAMPLE_RATE) this.run.stdout?.pause();
    this.notify(true);
  }

  private notify(_: boolean): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** The next decoded frames (interleaved), or null at the end of the track. */
  async next(): Promise<Int16Array | null> {
    while (!this.queue.length && !this.streamEnded) await new Promise<void>((resolve) => (this.wake = resolve));
    const pcm = this.queue.shift();
    if (pcm) {
      this.queued -= pcm.length / 2;
      if (this.queued < (DECODE_AHEAD_SECONDS / 2) * MIX_SAMPLE_RATE) this.run.stdout?.resume();
      this.frames += pcm.length / 2;
      return pcm;
    }
    this.ended = true;
    const failed = await this.failure;
    if (failed) throw new EngineError('invalid_input', `The music could not be decoded (${failed.message}); choose another file.`);
    return null;
  }

  close(): void {
    // (Decoded to the end: ffmpeg is exiting by itself, and a track being kept is kept.)
    if (this.ended || this.streamEnded) return;
    this.run.proc.kill('SIGKILL');
    // FFMPEG_PATH may be a wrapper that runs ffmpeg as its child: the pipe closed, that ffmpeg
    // ends at its next write, and this process holds no open stream.
    this.run.stdout?.destroy();
  }
}

/** The tail of a pass faded out while the start of the next fades in (equal power); `start` may be shorter. */
function crossfade(tail: Int16Array, start: Int16Array): Int16Array {
  const n = tail.length / 2;
  const mixed = new Int16Array(tail.length);
  for (let f = 0; f < n; f++) {
    const x = (f + 0.5) / n;
    const out = Math.cos((x * Math.PI) / 2);
    const into = Math.sin((x * Math.PI) / 2);
    for (let c = 0; c < 2; c++) {
      const i = 2 * f + c;
      mixed[i] = Math.max(-32768, Math.min(32767, Math.round(tail[i]! * out + (start[i] ?? 0) * into)));
    }
  }
  return mixed;
}

export class MusicSource {
  private pass: TrackPass;
  /** Frames ready to mix. */
  private readonly ready = new FrameQueue();
  /** The newest frames of the current pass, held back: the crossfade's first half if the track ends there. */
  private readonly held = new FrameQueue();
  private readonly crossfade: number;
  private closed = false;
  /** The first pass, measured as it is read (until known). */
  private readonly start = new StartLoudness();
  private firstPass = true;

  /**
   * `play` starts a pass over the track (again at every loop); `durationSeconds` sets the loop's
   * crossfade; `knownLoudness`, when the track was measured before, spares measuring it again.
   */
  constructor(private readonly play: () => TrackPass, durationSeconds: number | null, private readonly knownLoudness?: number) {
    const longest = Math.round(LOOP_CROSSFADE_SECONDS * MIX_SAMPLE_RATE);
    this.crossfade = durationSeconds ? Math.max(1, Math.min(longest, Math.round((durationSeconds * MIX_SAMPLE_RATE) / 4))) : longest;
    this.pass = play();
  }

  /** trackLoudness of the track; -Infinity for silence. */
  async loudness(): Promise<number> {
    if (this.knownLoudness !== undefined) return this.knownLoudness;
    while (!this.start.full && this.firstPass) await this.fill();
    return this.start.loudness();
  }

  /** The next `n` frames of music (interleaved stereo), looping as long as asked. */
  async take(n: number): Promise<Int16Array> {
    while (this.ready.frames < n) await this.fill();
    return this.ready.take(n);
  }

  /** Decodes more: everything but the newest `crossfade` frames becomes ready; at the track's end, the loop's crossfade. */
  private async fill(): Promise<void> {
    if (this.closed) throw new EngineError('canceled', 'The render was canceled.');
    const piece = await this.pass.next();
    if (piece && this.firstPass) this.start.push(piece);
    if (piece) {
      this.held.push(piece);
      if (this.held.frames > this.crossfade) this.ready.push(this.held.take(this.held.frames - this.crossfade));
      return;
    }
    if (this.pass.frames === 0) throw new EngineError('invalid_input', 'The music holds no sound; choose another file.');
    // The track ended: its tail fades out while the next pass's start fades in (equal power).
    const tail = this.held.take(this.held.frames);
    this.firstPass = false;
    this.pass = this.play();
    const head = new FrameQueue();
    while (head.frames < tail.length / 2) {
      const p = await this.pass.next();
      if (!p) break;
      head.push(p);
    }
    this.ready.push(crossfade(tail, head.take(tail.length / 2)));
    this.held.push(head.take(head.frames));
    if (this.pass.ended && this.held.frames === 0 && this.ready.frames === 0) throw new EngineError('invalid_input', 'The music holds no sound; choose another file.');
  }

  close(): void {
    this.closed = true;
    this.pass.close();
  }
}
