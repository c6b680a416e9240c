// The final mix with music: the narration (mono, levelled to the mix's loudness) in the centre,
// the music under it at the chosen volume (its own loudness measured, so a volume means the
// same for every track), ducked under speech, faded in at the start and out at the end, then a
// peak limiter over the sum. Audio goes out as it is spoken, held back only as far as the
// ducking looks ahead; the end (and so the fade-out) is known when the narration ends.
import { SOUND_LIMITS, VIDEO_EDGES } from '../../../shared/contract/index.js';
import { PEAK_CEILING_DBFS, StereoLoudness } from '../speech/loudness.js';
import { resample } from '../speech/resample.js';
import { SPEECH_SAMPLE_RATE } from '../speech/speech.js';
import type { RenderMusic } from '../types.js';
import { Ducker, DUCKING } from './ducking.js';
import { StreamLimiter } from './limiter.js';
import { openMusic } from './music-cache.js';
import { MIX_SAMPLE_RATE, type MusicSource } from './music-source.js';

/** The music's fades (seconds): in over the start of the lead-in, out over the end of the tail. */
export const MUSIC_FADES = { inSeconds: 0.3, outSeconds: Math.min(1.2, VIDEO_EDGES.tailSeconds) } as const;

/** How far, and how fast (per piece mixed), the master gain may move (dB). */
const MASTER_RANGE_DB = 3;
const MASTER_STEP_DB = 1;
/**
 * The most mixed at once, 2 s in the ducking's frames. Fast speech arrives far ahead of the
 * frames, and a mix of all of it at once held it several times over as floats.
 */
const PIECE_FRAMES = Math.round(2 / DUCKING.frameSeconds);

/** The narration in both channels at -3 dB: as loud in stereo (BS.1770 adds the channels' power) as it was alone. */
const CENTRE = Math.SQRT1_2;

export class MusicMix {
  private source: MusicSource | null = null;
  private closed = false;
  private readonly ducker: Ducker;
  private readonly limiter = new StreamLimiter(MIX_SAMPLE_RATE, PEAK_CEILING_DBFS);
  /** Narration at the mix's rate, not yet mixed. */
  private pending: Int16Array[] = [];
  private pendingSamples = 0;
  /** Samples mixed so far. */
  private mixed = 0;
  /** The last piece has gone out. */
  private ended = false;
  private musicGain = 0;
  /** The music's gain at the end of the last frame mixed (linear). */
  private lastDuck = 1;
  /** The loudness of the mix so far (before the master gain), and the master gain now (dB). */
  private readonly meter = new StereoLoudness(MIX_SAMPLE_RATE);
  private masterDb = 0;
  /** The piece being mixed: its narration and the mix before the limiter (kept from piece to piece: read only within a mix call). */
  private narrationScratch = new Int16Array(0);
  private mixScratch = new Float32Array(0);

  /**
   * `open`: the music as stereo PCM at the mix's rate (openMusic: decoded, or from the engine's
   * cache of decoded music in `cacheDir`; the rehearsal's: from memory).
   */
  constructor(private readonly music: Pick<RenderMusic, 'volume' | 'duck'>, private readonly open: () => Promise<MusicSource>) {
    this.ducker = new Ducker(MIX_SAMPLE_RATE, music.duck ? DUCKING.depthDb : 0);
  }

  /** The mix of `music` as a render has it, its decoded music kept in `cacheDir` (null: none kept). */
  static of(music: RenderMusic, signal: AbortSignal, cacheDir: string | null): MusicMix {
    return new MusicMix(music, () => openMusic(music, signal, cacheDir));
  }

  /** Opens and measures the music (its start) and sets its gain: at volume 1 as loud as the narration. */
  async prepare(): Promise<void> {
    const source = await this.open();
    if (this.closed) source.close();
    this.source = source;
    const lufs = await source.loudness();
    this.musicGain = Number.isFinite(lufs) ? this.music.volume * 10 ** ((SOUND_LIMITS.loudnessLufs - lufs) / 20) : 0;
  }

  /** Narration at the speech rate (mono), or `silence` samples of it. */
  push(piece: Int16Array | number): void {
    const up = typeof piece === 'number' ? new Int16Array(Math.round((piece * MIX_SAMPLE_RATE) / SPEECH_SAMPLE_RATE)) : resample(piece, SPEECH_SAMPLE_RATE, MIX_SAMPLE_RATE);
    this.ducker.push(up);
    this.pending.push(up);
    this.pendingSamples += up.length;
  }

  /**
   * The mix of what can be mixed now (interleaved stereo, 16-bit), in pieces of at most
   * PIECE_FRAMES: all of it when `final` (the narration is complete), else all but the ducking's
   * look-ahead. All of a narration at once (a preview) is one piece, with one master gain.
   */
  async mix(final: boolean): Promise<Int16Array[]> {
    if (final) this.ducker.end();
    const frameSamples = this.ducker.frameSamples;
    const total = this.mixed + this.pendingSamples;
    const whole = final && this.mixed === 0;
    let frames = final ? this.ducker.frames - Math.floor(this.mixed / frameSamples) : Math.max(0, this.ducker.frames - this.ducker.attackFrames - Math.floor(this.mixed / frameSamples));
    const out: Int16Array[] = [];
    while (frames > 0 || (final && !this.ended)) {
      const n = whole ? frames : Math.min(frames, PIECE_FRAMES);
      const last = final && n === frames;
      const piece = await this.mixPiece(n, last ? this.pendingSamples : n * frameSamples, last, whole, total);
      if (piece.length) out.push(piece);
      frames -= n;
      this.ended = last;
    }
    return out;
  }

  /** Mixes `frames` ducking frames (`count` samples: all that is left when `last`). */
  private async mixPiece(frames: number, count: number, last: boolean, whole: boolean, total: number): Promise<Int16Array> {
    const frameSamples = this.ducker.frameSamples;
    const narration = this.takeNarration(count);
    if (!this.source) throw new Error('MusicMix.mix before prepare');
    const music = await this.source.take(count);
    const gains = this.ducker.next(frames);
    if (this.mixScratch.length < count * 2) this.mixScratch = new Float32Array(count * 2);
    const out = this.mixScratch.subarray(0, count * 2);
    // Samples (of this piece) from which the fade-out applies.
    const outFrom = last ? total - Math.round(MUSIC_FADES.outSeconds * MIX_SAMPLE_RATE) - this.mixed : Infinity;
    this.lastDuck = mixFrames(out, narration, music, gains, frameSamples, this.musicGain, this.lastDuck, this.mixed, outFrom, total);
    const [from, to] = this.master(out, whole);
    this.mixed += count;
    return this.limiter.push(out, last, from, to);
  }

  /**
   * The master gain (linear, at the start and the end of the piece) that keeps the whole mix at
   * the target loudness: music in the pauses lowers BS.1770's relative gate and so the integrated
   * loudness of speech levelled alone. Measured on the mix so far, it moves at most
   * MASTER_STEP_DB per piece, in a straight line across it (the limiter applies it).
   */
  private master(out: Float32Array, whole: boolean): [number, number] {
    this.meter.push(out);
    const soFar = this.meter.loudness();
    const want = Number.isFinite(soFar) ? Math.max(-MASTER_RANGE_DB, Math.min(MASTER_RANGE_DB, SOUND_LIMITS.loudnessLufs - soFar)) : this.masterDb;
    const from = whole ? want : this.masterDb;
    const to = whole ? want : Math.max(from - MASTER_STEP_DB, Math.min(from + MASTER_STEP_DB, want));
    this.masterDb = to;
    return [10 ** (from / 20), 10 ** (to / 20)];
  }

  private takeNarration(count: number): Int16Array {
    if (this.narrationScratch.length < count) this.narrationScratch = new Int16Array(count);
    const out = this.narrationScratch.subarray(0, count);
    let at = 0;
    while (at < count) {
      const p = this.pending[0]!;
      const want = count - at;
      if (p.length <= want) {
        out.set(p, at);
        at += p.length;
        this.pending.shift();
      } else {
        out.set(p.subarray(0, want), at);
        this.pending[0] = p.subarray(want);
        at += want;
      }
    }
    this.pendingSamples -= count;
    return out;
  }

  close(): void {
    this.closed = true;
    this.source?.close();
  }
}

/**
 * Narration in the centre plus the music at its gain, ducked frame by frame (straight lines
 * between the frames' gains) and faded where the fades fall, into `out`; returns the duck gain
 * reached. A plain function, apart from the async mix, and its loops functions of their own with
 * nothing after them, so V8 optimises them early and keeps them optimised.
 */
function mixFrames(
  out: Float32Array, narration: Int16Array, music: Int16Array, gains: Float32Array, frameSamples: number,
  gain: number, duck: number, mixed: number, outFrom: number, total: number,
): number {
  const count = narration.length;
  const fadeIn = Math.round(MUSIC_FADES.inSeconds * MIX_SAMPLE_RATE);
  for (let f = 0; f < gains.length; f++) {
    const target = 10 ** (gains[f]! / 20);
    const start = f * frameSamples;
    const end = Math.min(count, start + frameSamples);
    const step = (gain * (target - duck)) / frameSamples;
    if (mixed + start < fadeIn || end > outFrom) mixFaded(out, narration, music, start, end, gain * duck, step, mixed, outFrom, total);
    else mixPlain(out, narration, music, start, end, gain * duck, step);
    duck = target;
  }
  return duck;
}

/** mixFrames for samples start..end, the music's gain from `g`, `step` more at each. */
function mixPlain(out: Float32Array, narration: Int16Array, music: Int16Array, start: number, end: number, g: number, step: number): void {
  for (let s = start; s < end; s++, g += step) {
    const n = narration[s]! * CENTRE;
    out[2 * s] = n + music[2 * s]! * g;
    out[2 * s + 1] = n + music[2 * s + 1]! * g;
  }
}

/** mixPlain where a fade falls: the fade-in over the first samples of the mix, the fade-out from `outFrom` (of this piece) to `total`. */
function mixFaded(
  out: Float32Array, narration: Int16Array, music: Int16Array, start: number, end: number, g: number, step: number,
  mixed: number, outFrom: number, total: number,
): void {
  const fadeIn = Math.round(MUSIC_FADES.inSeconds * MIX_SAMPLE_RATE);
  const fadeOut = Math.round(MUSIC_FADES.outSeconds * MIX_SAMPLE_RATE);
  for (let s = start; s < end; s++, g += step) {
    const at = mixed + s;
    let k = g;
    if (at < fadeIn) k *= Math.sin((((at + 0.5) / fadeIn) * Math.PI) / 2) ** 2;
    if (s >= outFrom) k *= Math.sin((((total - at - 0.5) / fadeOut) * Math.PI) / 2) ** 2;
    const n = narration[s]! * CENTRE;
    out[2 * s] = n + music[2 * s]! * k;
    out[2 * s + 1] = n + music[2 * s + 1]! * k;
  }
}
