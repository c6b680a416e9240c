// The final mix with music: the narration (mono, levelled to the mix's loudness) in the centre,
// the music under it at the chosen volume (its own loudness measured, so a volume means the
// same for every track), ducked under speech, faded in at the start and out at the end, then a
// peak limiter over the sum. Audio goes out as it is spoken, held back only as far as the
// ducking looks ahead; the end (and so the fade-out) is known when the narration ends.
import { SOUND_LIMITS, VIDEO_EDGES } from '../../../shared/contract/index.js';
import { blockPowers, gatedLoudness, PEAK_CEILING_DBFS } from '../speech/loudness.js';
import { resample } from '../speech/resample.js';
import { SPEECH_SAMPLE_RATE } from '../speech/speech.js';
import type { RenderMusic } from '../types.js';
import { Ducker, DUCKING } from './ducking.js';
import { StreamLimiter } from './limiter.js';
import { MIX_SAMPLE_RATE, MusicSource } from './music-source.js';

/** The music's fades (seconds): in over the start of the lead-in, out over the end of the tail. */
export const MUSIC_FADES = { inSeconds: 0.3, outSeconds: Math.min(1.2, VIDEO_EDGES.tailSeconds) } as const;

/** How far, and how fast (per piece mixed), the master gain may move (dB). */
const MASTER_RANGE_DB = 3;
const MASTER_STEP_DB = 1;

/** The narration in both channels at -3 dB: as loud in stereo (BS.1770 adds the channels' power) as it was alone. */
const CENTRE = Math.SQRT1_2;

export class MusicMix {
  private readonly source: MusicSource;
  private readonly ducker: Ducker;
  private readonly limiter = new StreamLimiter(2, MIX_SAMPLE_RATE, PEAK_CEILING_DBFS);
  /** Narration at the mix's rate, not yet mixed. */
  private pending: Int16Array[] = [];
  private pendingSamples = 0;
  /** Samples mixed so far. */
  private mixed = 0;
  private musicGain = 0;
  /** The music's gain at the end of the last frame mixed (linear). */
  private lastDuck = 1;
  /** BS.1770 block powers of the mix so far (before the master gain), and the master gain now (dB). */
  private readonly powers: number[] = [];
  private masterDb = 0;

  constructor(private readonly music: RenderMusic, signal: AbortSignal) {
    this.source = new MusicSource(music.path, music.durationSeconds, signal);
    this.ducker = new Ducker(MIX_SAMPLE_RATE, music.duck ? DUCKING.depthDb : 0);
  }

  /** Measures the music (its start) and sets its gain: at volume 1 as loud as the narration. */
  async prepare(): Promise<void> {
    const lufs = await this.source.loudness();
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
   * The mix of what can be mixed now (interleaved stereo, 16-bit): all of it when `final` (the
   * narration is complete), else all but the ducking's look-ahead.
   */
  async mix(final: boolean): Promise<Int16Array> {
    if (final) this.ducker.end();
    const frameSamples = this.ducker.frameSamples;
    const total = this.mixed + this.pendingSamples;
    const frames = final ? this.ducker.frames - Math.floor(this.mixed / frameSamples) : Math.max(0, this.ducker.frames - this.ducker.attackFrames - Math.floor(this.mixed / frameSamples));
    const count = final ? this.pendingSamples : frames * frameSamples;
    if (count <= 0 && !final) return new Int16Array(0);
    const narration = this.takeNarration(count);
    const music = await this.source.take(count);
    const gains = this.ducker.next(frames);
    const fadeIn = Math.round(MUSIC_FADES.inSeconds * MIX_SAMPLE_RATE);
    const fadeOut = Math.round(MUSIC_FADES.outSeconds * MIX_SAMPLE_RATE);
    const out = new Float32Array(count * 2);
    let duck = this.lastDuck;
    const mixed = this.mixed;
    const gain = this.musicGain;
    // Samples (of this piece) from which the fade-out applies; the fades only where they fall.
    const outFrom = final ? total - fadeOut - mixed : Infinity;
    for (let f = 0; f < frames; f++) {
      const target = 10 ** (gains[f]! / 20);
      const start = f * frameSamples;
      const end = Math.min(count, start + frameSamples);
      const step = (target - duck) / frameSamples;
      const fades = mixed + start < fadeIn || end > outFrom;
      for (let s = start; s < end; s++) {
        let g = gain * (duck + step * (s - start));
        if (fades) {
          const at = mixed + s;
          if (at < fadeIn) g *= Math.sin((((at + 0.5) / fadeIn) * Math.PI) / 2) ** 2;
          if (s >= outFrom) g *= Math.sin((((total - at - 0.5) / fadeOut) * Math.PI) / 2) ** 2;
        }
        const n = narration[s]! * CENTRE;
        out[2 * s] = n + music[2 * s]! * g;
        out[2 * s + 1] = n + music[2 * s + 1]! * g;
      }
      duck = target;
    }
    this.lastDuck = duck;
    // All of it at once (a preview): one master gain for the whole, no ramp.
    this.master(out, final && this.mixed === 0);
    this.mixed += count;
    return this.limiter.push(out, final);
  }

  /**
   * The master gain that keeps the whole mix at the target loudness: music in the pauses lowers
   * BS.1770's relative gate and so the integrated loudness of speech levelled alone. Measured on
   * the mix so far, it moves at most MASTER_STEP_DB per piece, in a straight line across it.
   */
  private master(out: Float32Array, whole: boolean): void {
    const frames = out.length / 2;
    const l = blockPowers(out, MIX_SAMPLE_RATE, 2, 0);
    const r = blockPowers(out, MIX_SAMPLE_RATE, 2, 1);
    for (let i = 0; i < l.length; i++) this.powers.push(l[i]! + r[i]!);
    const soFar = gatedLoudness(this.powers);
    const want = Number.isFinite(soFar) ? Math.max(-MASTER_RANGE_DB, Math.min(MASTER_RANGE_DB, SOUND_LIMITS.loudnessLufs - soFar)) : this.masterDb;
    const from = whole ? want : this.masterDb;
    const to = whole ? want : Math.max(from - MASTER_STEP_DB, Math.min(from + MASTER_STEP_DB, want));
    this.masterDb = to;
    if (from === 0 && to === 0) return;
    const a = 10 ** (from / 20);
    const step = (10 ** (to / 20) - a) / Math.max(1, frames);
    for (let f = 0; f < frames; f++) {
      const g = a + step * f;
      out[2 * f] = out[2 * f]! * g;
      out[2 * f + 1] = out[2 * f + 1]! * g;
    }
  }

  private takeNarration(count: number): Int16Array {
    const out = new Int16Array(count);
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
    this.source.close();
  }
}
