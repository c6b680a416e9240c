// Narration loudness: every voice at the same level. Measured per ITU-R BS.1770 (K-weighting,
// 400 ms blocks, absolute and relative gates), the loudness players and platforms use; espeak's
// voices came out at -18 to -23 LUFS and SVOX Pico's at -11 to -14 with peaks at full scale, so a
// change of voice changed the video's level by up to 11 dB and Pico's narration clipped.
import { SOUND_LIMITS } from '../../../shared/contract/index.js';

/** Integrated loudness of a narration (LUFS): the final mix's level (music under it adds a fraction of a LU). */
export const NARRATION_LUFS = SOUND_LIMITS.loudnessLufs;
/** Highest level after the gain, between samples too (dBTP): leaves room for the AAC encoder's overshoot. */
export const PEAK_CEILING_DBFS = -1.8;
/** The gain is kept within these bounds (dB): a nearly silent chunk is not blown up. */
const MAX_BOOST_DB = 15;
const MAX_CUT_DB = -15;

const BLOCK_SECONDS = 0.4;
const STEP_SECONDS = 0.1;
const ABSOLUTE_GATE = -70;
const RELATIVE_GATE = -10;

type Biquad = [b0: number, b1: number, b2: number, a1: number, a2: number];

/**
 * BS.1770's two K-weighting stages (a high shelf, then a high pass) for any sample rate: the
 * analogue prototypes of the standard's 48 kHz filters, through the bilinear transform (the
 * derivation libebur128 publishes), so a 997 Hz sine at 0 dBFS reads -3.01 LUFS at every rate.
 */
function kWeighting(rate: number): [Biquad, Biquad] {
  const shelf = (() => {
    const k = Math.tan((Math.PI * 1681.974450955533) / rate);
    const q = 0.7071752369554196;
    const vh = 10 ** (3.999843853973347 / 20);
    const vb = vh ** 0.4996667741545416;
    const a0 = 1 + k / q + k * k;
    return [(vh + (vb * k) / q + k * k) / a0, (2 * (k * k - vh)) / a0, (vh - (vb * k) / q + k * k) / a0, (2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0] as Biquad;
  })();
  const highPass = (() => {
    const k = Math.tan((Math.PI * 38.13547087602444) / rate);
    const q = 0.5003270373238773;
    const a0 = 1 + k / q + k * k;
    return [1, -2, 1, (2 * (k * k - 1)) / a0, (1 - k / q + k * k) / a0] as Biquad;
  })();
  return [shelf, highPass];
}

/**
 * Mean squares of the K-weighted signal in BS.1770's 400 ms blocks, 100 ms apart (one block if
 * shorter). One pass: the filters run sample by sample and blocks are sums of four 100 ms steps.
 * Mono, 16-bit scale.
 */
export function blockPowers(samples: Int16Array, rate: number): number[] {
  const step = Math.round(STEP_SECONDS * rate);
  const [[s0, s1, s2, s3, s4], [h0, h1, h2, h3, h4]] = kWeighting(rate);
  const steps: number[] = [];
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0, z1 = 0, z2 = 0;
  let sum = 0;
  let inStep = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]! / 32768;
    const y = s0 * x + s1 * x1 + s2 * x2 - s3 * y1 - s4 * y2;
    x2 = x1; x1 = x;
    const z = h0 * y + h1 * y1 + h2 * y2 - h3 * z1 - h4 * z2;
    y2 = y1; y1 = y;
    z2 = z1; z1 = z;
    sum += z * z;
    if (++inStep === step) {
      steps.push(sum);
      sum = 0;
      inStep = 0;
    }
  }
  return stepsToBlocks(steps, step, sum, samples.length);
}

/** 400 ms block powers from 100 ms steps' sums of squares (`step` samples each; `rest` the partial step's, `samples` in all). */
function stepsToBlocks(steps: readonly number[], step: number, rest: number, samples: number): number[] {
  const perBlock = Math.round(BLOCK_SECONDS / STEP_SECONDS);
  if (steps.length < perBlock) return samples > 0 ? [(steps.reduce((a, b) => a + b, 0) + rest) / samples] : [];
  const powers: number[] = [];
  for (let k = 0; k + perBlock <= steps.length; k++) {
    let block = 0;
    for (let j = 0; j < perBlock; j++) block += steps[k + j]!;
    powers.push(block / (perBlock * step));
  }
  return powers;
}

/**
 * BS.1770 loudness of interleaved stereo (16-bit scale) as it streams past, read on every other
 * frame: above a few kHz the K-weighting is flat, and that is where the frequencies over half the
 * rate fold to, so the reading is the full rate's for half the filtering.
 */
export class StereoLoudness {
  /** The two stages' coefficients: b0 b1 b2 a1 a2 of the shelf, then of the high pass. */
  private readonly coefficients: Float64Array;
  private readonly step: number;
  private readonly steps: number[] = [];
  /** Filter memories: x1 x2 y1 y2 z1 z2 of the left channel, then of the right. */
  private readonly mem = new Float64Array(12);
  private sum = 0;
  private inStep = 0;
  private measured = 0;
  /** Frames to pass over at the start of the next piece (the frame after the last one read). */
  private skip = 0;

  constructor(rate: number) {
    this.coefficients = Float64Array.from(kWeighting(rate / 2).flat());
    this.step = Math.round((STEP_SECONDS * rate) / 2);
  }

  push(samples: Float32Array): void {
    const frames = samples.length >> 1;
    let f = this.skip;
    // A step at a time: the filters' loop has no branch, and a step's end is counted here.
    while (f < frames) {
      const n = Math.min(this.step - this.inStep, Math.ceil((frames - f) / 2));
      this.sum = kWeightedPower(samples, f, n, this.coefficients, this.mem, this.sum);
      f += 2 * n;
      this.measured += n;
      this.inStep += n;
      if (this.inStep === this.step) {
        this.steps.push(this.sum);
        this.sum = 0;
        this.inStep = 0;
      }
    }
    this.skip = f - frames;
  }

  /** Integrated loudness (LUFS) of everything pushed; -Infinity for silence. */
  loudness(): number {
    return gatedLoudness(stepsToBlocks(this.steps, this.step, this.sum, this.measured));
  }
}

/**
 * `sum` plus the K-weighted power (sum of squares, both channels) of `n` frames of `samples`,
 * every other one from frame `f`, through filters of coefficients `k` and memories `m` (updated).
 */
function kWeightedPower(samples: Float32Array, f: number, n: number, k: Float64Array, m: Float64Array, sum: number): number {
  const s0 = k[0]!, s1 = k[1]!, s2 = k[2]!, s3 = k[3]!, s4 = k[4]!, h0 = k[5]!, h1 = k[6]!, h2 = k[7]!, h3 = k[8]!, h4 = k[9]!;
  let lx1 = m[0]!, lx2 = m[1]!, ly1 = m[2]!, ly2 = m[3]!, lz1 = m[4]!, lz2 = m[5]!;
  let rx1 = m[6]!, rx2 = m[7]!, ry1 = m[8]!, ry2 = m[9]!, rz1 = m[10]!, rz2 = m[11]!;
  for (let i = 2 * f, end = 2 * (f + 2 * n); i < end; i += 4) {
    const l = samples[i]! / 32768;
    const r = samples[i + 1]! / 32768;
    const ly = s0 * l + s1 * lx1 + s2 * lx2 - s3 * ly1 - s4 * ly2;
    lx2 = lx1; lx1 = l;
    const lz = h0 * ly + h1 * ly1 + h2 * ly2 - h3 * lz1 - h4 * lz2;
    ly2 = ly1; ly1 = ly;
    lz2 = lz1; lz1 = lz;
    const ry = s0 * r + s1 * rx1 + s2 * rx2 - s3 * ry1 - s4 * ry2;
    rx2 = rx1; rx1 = r;
    const rz = h0 * ry + h1 * ry1 + h2 * ry2 - h3 * rz1 - h4 * rz2;
    ry2 = ry1; ry1 = ry;
    rz2 = rz1; rz1 = rz;
    sum += lz * lz + rz * rz;
  }
  m[0] = lx1; m[1] = lx2; m[2] = ly1; m[3] = ly2; m[4] = lz1; m[5] = lz2;
  m[6] = rx1; m[7] = rx2; m[8] = ry1; m[9] = ry2; m[10] = rz1; m[11] = rz2;
  return sum;
}

const lufs = (power: number) => -0.691 + 10 * Math.log10(power);

/** Gated integrated loudness (LUFS) of block powers; -Infinity for silence. */
export function gatedLoudness(powers: readonly number[]): number {
  const loud = powers.filter((p) => p > 0 && lufs(p) > ABSOLUTE_GATE);
  if (!loud.length) return -Infinity;
  const relative = lufs(loud.reduce((a, b) => a + b, 0) / loud.length) + RELATIVE_GATE;
  const kept = loud.filter((p) => lufs(p) > relative);
  return lufs(kept.reduce((a, b) => a + b, 0) / kept.length);
}

/** Integrated loudness (LUFS) of mono 16-bit PCM. */
export function integratedLoudness(samples: Int16Array, rate: number): number {
  return gatedLoudness(blockPowers(samples, rate));
}

/** Nearest integer, halves away from zero (Math.round costs twice as much here, per sample). */
const round = (v: number) => (v < 0 ? (v - 0.5) | 0 : (v + 0.5) | 0);

/** Samples per step of the limiter's gain curve (~1.5 ms at 22.05 kHz). */
export const LIMITER_BLOCK = 32;
/** Seconds the limiter takes to recover from full reduction. */
const LIMITER_RELEASE_SECONDS = 0.05;

/** Taps per side of the interpolator that finds peaks between samples (BS.1770's true peak, 4x oversampled). */
const TP_TAPS = 8;
const TP_PHASES = [0.25, 0.5, 0.75];
/** Windowed-sinc weights of samples i - TP_TAPS + 1 .. i + TP_TAPS for a point a fraction past sample i. */
const TP_KERNELS = TP_PHASES.map((frac) => {
  const k = new Float64Array(2 * TP_TAPS);
  for (let t = 0; t < 2 * TP_TAPS; t++) {
    const d = t - (TP_TAPS - 1) - frac;
    const sinc = Math.sin(Math.PI * d) / (Math.PI * d);
    k[t] = sinc * (0.5 + 0.5 * Math.cos((Math.PI * d) / TP_TAPS));
  }
  return k;
});

const interPeaks = new WeakMap<Int16Array, Float32Array>();

/** The highest level between samples from..to (exclusive), from the 4x interpolated signal. */
function interSamplePeak(samples: Int16Array, from: number, to: number): number {
  let peak = 0;
  const n = samples.length;
  for (let i = from; i < to; i++) {
    for (const k of TP_KERNELS) {
      let acc = 0;
      const first = i - TP_TAPS + 1;
      for (let t = 0; t < k.length; t++) {
        const j = first + t;
        if (j >= 0 && j < n) acc += samples[j]! * k[t]!;
      }
      if (acc > peak) peak = acc;
      else if (-acc > peak) peak = -acc;
    }
  }
  return peak;
}

/**
 * Applies a gain, with a look-ahead limiter holding every sample (and the signal between
 * samples, where it comes near) under the ceiling. The limiter's
 * gain is set at the edges of 32-sample blocks, no higher than what the blocks on either side of
 * an edge allow, and runs in a straight line across each block, so it dips smoothly before a
 * peak, never lets one through, and recovers over ~50 ms.
 */
export function applyGain(samples: Int16Array, rate: number, gainDb: number, ceilingDb = PEAK_CEILING_DBFS): Int16Array {
  const gain = 10 ** (gainDb / 20);
  const ceiling = 32767 * 10 ** (ceilingDb / 20);
  const n = samples.length;
  const blocks = Math.ceil(n / LIMITER_BLOCK);
  // What each block allows (1: no limiting), from its loudest sample.
  const allowed = new Float32Array(blocks + 2).fill(1);
  let limited = false;
  for (let b = 0; b < blocks; b++) {
    let peak = 0;
    const end = Math.min(n, (b + 1) * LIMITER_BLOCK);
    for (let i = b * LIMITER_BLOCK; i < end; i++) {
      const v = samples[i]!;
      if (v > peak) peak = v;
      else if (-v > peak) peak = -v;
    }
    // Near the ceiling, the peaks between samples count too (the level a player's resampler reaches).
    if (peak * gain > ceiling * 0.7) {
      // (Kept per block: the leveler tries a few gains on the same samples.)
      let known = interPeaks.get(samples);
      if (!known) interPeaks.set(samples, (known = new Float32Array(blocks).fill(-1)));
      if (known[b]! < 0) known[b] = interSamplePeak(samples, b * LIMITER_BLOCK, end);
      peak = Math.max(peak, known[b]!);
    }
    if (peak * gain > ceiling) {
      allowed[b + 1] = ceiling / (peak * gain);
      limited = true;
    }
  }
  const out = new Int16Array(n);
  if (!limited) {
    for (let i = 0; i < n; i++) out[i] = round(samples[i]! * gain);
    return out;
  }
  // Gain at block edge e (between blocks e - 1 and e): the least that the blocks e - 2 .. e + 1
  // allow, so both blocks it bounds stay under the ceiling all the way across.
  const edges = new Float32Array(blocks + 1);
  const release = (LIMITER_BLOCK / rate) / LIMITER_RELEASE_SECONDS;
  for (let e = 0; e <= blocks; e++) {
    const m = Math.min(allowed[e]!, allowed[e + 1]!, e >= 1 ? allowed[e - 1]! : 1, e + 2 < allowed.length ? allowed[e + 2]! : 1);
    edges[e] = e ? Math.min(m, edges[e - 1]! + release) : m;
  }
  for (let b = 0; b < blocks; b++) {
    const from = edges[b]! * gain;
    const slope = ((edges[b + 1]! - edges[b]!) * gain) / LIMITER_BLOCK;
    const start = b * LIMITER_BLOCK;
    const end = Math.min(n, start + LIMITER_BLOCK);
    for (let i = start; i < end; i++) out[i] = round(samples[i]! * (from + slope * (i - start)));
  }
  return out;
}

/**
 * Brings a narration, chunk by chunk as it is spoken, to NARRATION_LUFS: each chunk's gain comes
 * from the loudness of everything spoken so far (the first sentence sets it; later ones refine it
 * by a fraction of a dB at sentence pauses), and a limiter keeps peaks under the ceiling. What
 * the limiter takes off with a voice's peaks (espeak's male voices: 1-3 dB) is measured on the
 * chunk and made up for, here and in the chunks after it.
 */
export class Leveler {
  private readonly input: number[] = [];
  /** Loudness the limiter took off the last chunk (dB). */
  private limiterLossDb = 0;

  level(samples: Int16Array, rate: number): Int16Array {
    const powers = blockPowers(samples, rate);
    this.input.push(...powers);
    const soFar = gatedLoudness(this.input);
    const chunk = gatedLoudness(powers);
    if (!Number.isFinite(soFar) || !Number.isFinite(chunk)) return samples;
    let out = samples;
    // The chunk's loudness after the gain, wanted and got: each round adds what is still missing
    // (the limiter takes more as the gain grows, so a round closes most of the gap, not all).
    const want = chunk + NARRATION_LUFS - soFar;
    let gainDb = NARRATION_LUFS - soFar + this.limiterLossDb;
    for (let round = 0; round < 4; round++) {
      gainDb = Math.min(MAX_BOOST_DB, Math.max(MAX_CUT_DB, gainDb));
      out = applyGain(samples, rate, gainDb);
      const missing = want - integratedLoudness(out, rate);
      // Within 0.2 dB of what was asked: done (a chunk the limiter barely touches needs one round).
      if (Math.abs(missing) < 0.2) break;
      gainDb += missing;
    }
    this.limiterLossDb = Math.max(0, gainDb - (NARRATION_LUFS - soFar));
    return out;
  }
}
