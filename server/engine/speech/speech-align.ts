// Timings for engines that report none (SVOX Pico, neural packs): their audio is aligned to
// espeak-ng's rendering of the same text, whose word and phoneme times are known, by dynamic
// time warping over MFCC frames (as speech toolkits such as Echogarden do). Both renderings say
// the same phones in the same order, so the cheapest monotonic path between their spectral
// envelopes maps every espeak time onto the other audio.
import type { SpeechTimeline, TimedPhoneme, TimedWord } from '../../../shared/scene/index.js';

/** MFCC frames every 10 ms. */
const HOP_SECONDS = 0.01;
const FFT_SIZE = 512;
const MEL_BANDS = 26;
const COEFFS = 12; // c1…c12: c0 (loudness) is left out, the voices' levels differ

/** Cepstral coefficients per 10 ms frame (mean- and variance-normalised per utterance, so two voices compare). */
export function mfcc(samples: Int16Array, sampleRate: number): { frames: Float32Array[]; hop: number } {
  const hop = Math.round(sampleRate * HOP_SECONDS);
  const win = Math.min(FFT_SIZE, Math.round(sampleRate * 0.025));
  const n = Math.max(1, Math.ceil(samples.length / hop));
  const window = Float64Array.from({ length: win }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (win - 1)));
  const filters = melFilters(sampleRate);
  const dct = Array.from({ length: COEFFS }, (_, k) => Float64Array.from({ length: MEL_BANDS }, (_, m) => Math.cos((Math.PI * (k + 1) * (m + 0.5)) / MEL_BANDS)));
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const power = [new Float64Array(FFT_SIZE / 2 + 1), new Float64Array(FFT_SIZE / 2 + 1)];
  const mel = new Float64Array(MEL_BANDS);
  const frames: Float32Array[] = [];
  /** Frame f's windowed, pre-emphasised samples into `into` (zero beyond the window and the audio). */
  const load = (f: number, into: Float64Array) => {
    into.fill(0);
    if (f >= n) return;
    const at = f * hop - (win >> 1);
    for (let i = 0; i < win; i++) {
      const k = at + i;
      if (k <= 0 || k >= samples.length) continue;
      into[i] = ((samples[k]! - 0.97 * samples[k - 1]!) / 32768) * window[i]!;
    }
  };
  // Two real frames per complex FFT (one as the real part, the next as the imaginary part),
  // whose spectra are then told apart by symmetry: half the transforms.
  for (let f = 0; f < n; f += 2) {
    load(f, re);
    load(f + 1, im);
    fft(re, im);
    const [pa, pb] = power as [Float64Array, Float64Array];
    for (let k = 0; k <= FFT_SIZE / 2; k++) {
      const nk = (FFT_SIZE - k) & (FFT_SIZE - 1);
      const ar = (re[k]! + re[nk]!) / 2;
      const ai = (im[k]! - im[nk]!) / 2;
      const br = (im[k]! + im[nk]!) / 2;
      const bi = (re[nk]! - re[k]!) / 2;
      pa[k] = ar * ar + ai * ai;
      pb[k] = br * br + bi * bi;
    }
    for (let g = f; g < Math.min(n, f + 2); g++) {
      const p = power[g - f]!;
      for (let m = 0; m < MEL_BANDS; m++) {
        const { from, weights } = filters[m]!;
        let e = 0;
        for (let i = 0; i < weights.length; i++) e += weights[i]! * p[from + i]!;
        mel[m] = Math.log(e + 1e-10);
      }
      const c = new Float32Array(COEFFS);
      for (let k = 0; k < COEFFS; k++) {
        let s = 0;
        for (let m = 0; m < MEL_BANDS; m++) s += dct[k]![m]! * mel[m]!;
        c[k] = s;
      }
      frames.push(c);
    }
  }
  for (let k = 0; k < COEFFS; k++) {
    let mean = 0;
    for (const c of frames) mean += c[k]!;
    mean /= frames.length;
    let v = 0;
    for (const c of frames) v += (c[k]! - mean) ** 2;
    const sd = Math.sqrt(v / frames.length) || 1;
    for (const c of frames) c[k] = (c[k]! - mean) / sd;
  }
  return { frames, hop: hop / sampleRate };
}

function melFilters(sampleRate: number): { from: number; weights: Float64Array }[] {
  const toMel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
  const toHz = (m: number) => 700 * (10 ** (m / 2595) - 1);
  const lo = toMel(100);
  const hi = toMel(Math.min(7600, sampleRate / 2));
  const bin = (hz: number) => (hz * FFT_SIZE) / sampleRate;
  const edges = Array.from({ length: MEL_BANDS + 2 }, (_, i) => bin(toHz(lo + ((hi - lo) * i) / (MEL_BANDS + 1))));
  return Array.from({ length: MEL_BANDS }, (_, m) => {
    const [a, b, c] = [edges[m]!, edges[m + 1]!, edges[m + 2]!];
    const from = Math.ceil(a);
    const to = Math.floor(c);
    const weights = new Float64Array(Math.max(0, to - from + 1));
    for (let k = from; k <= to; k++) weights[k - from] = k <= b ? (k - a) / (b - a || 1) : (c - k) / (c - b || 1);
    return { from, weights };
  });
}

/** Bit-reversed order and twiddle factors of the FFT size, computed once. */
const FFT_TABLES = (() => {
  const n = FFT_SIZE;
  const rev = new Uint16Array(n);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    rev[i] = j;
  }
  const cos = Float64Array.from({ length: n / 2 }, (_, k) => Math.cos((-2 * Math.PI * k) / n));
  const sin = Float64Array.from({ length: n / 2 }, (_, k) => Math.sin((-2 * Math.PI * k) / n));
  return { rev, cos, sin };
})();

/** In-place radix-2 FFT of FFT_SIZE points. */
function fft(re: Float64Array, im: Float64Array): void {
  const n = FFT_SIZE;
  const { rev, cos, sin } = FFT_TABLES;
  for (let i = 1; i < n; i++) {
    const j = rev[i]!;
    if (i < j) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const stride = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const wr = cos[k * stride]!;
        const wi = sin[k * stride]!;
        const a = i + k;
        const b = a + half;
        const xr = re[b]! * wr - im[b]! * wi;
        const xi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
}

/**
 * The cheapest monotonic path from (0, 0) to the last frames of both, inside a band around the
 * straight line between them (the two renderings differ in pace, not in order). Returns, for
 * every reference frame, the mean target frame it was matched with.
 */
export function dtwMap(ref: Float32Array[], target: Float32Array[]): Float64Array {
  const N = ref.length;
  const M = target.length;
  const W = Math.max(40, Math.ceil(0.2 * Math.max(N, M)));
  const band = 2 * W + 1;
  const lo = (i: number) => Math.max(0, Math.floor((i * (M - 1)) / Math.max(1, N - 1)) - W);
  const hi = (i: number) => Math.min(M - 1, Math.floor((i * (M - 1)) / Math.max(1, N - 1)) + W);
  let prev = new Float64Array(M).fill(Infinity);
  let cur = new Float64Array(M).fill(Infinity);
  const dir = new Uint8Array(N * band); // 0 diagonal, 1 from the previous ref frame, 2 from the previous target frame
  // Both feature sequences in one flat array each: the distance loop reads neighbouring floats.
  const K = ref[0]?.length ?? 0;
  const A = flat(ref, K);
  const B = flat(target, K);
  for (let i = 0; i < N; i++) {
    const l = lo(i);
    const h = hi(i);
    // Bands only move right, so of what two rows ago left in `cur`, only the cell left of this
    // band could be read (as cur[l - 1]); cells right of it were never written.
    if (l > 0) cur[l - 1] = Infinity;
    for (let j = l; j <= h; j++) {
      let d = 0;
      for (let k = 0, ai = i * K, bj = j * K; k < K; k++) {
        const x = A[ai + k]! - B[bj + k]!;
        d += x * x;
      }
      d = Math.sqrt(d);
      let best = i === 0 && j === 0 ? 0 : Infinity;
      let step = 0;
      if (i > 0 && j > 0 && prev[j - 1]! < best) {
        best = prev[j - 1]!;
        step = 0;
      }
      if (i > 0 && prev[j]! < best) {
        best = prev[j]!;
        step = 1;
      }
      if (j > 0 && cur[j - 1]! < best) {
        best = cur[j - 1]!;
        step = 2;
      }
      cur[j] = best + d;
      dir[i * band + (j - l)] = step;
    }
    [prev, cur] = [cur, prev];
  }
  const sum = new Float64Array(N);
  const count = new Float64Array(N);
  for (let i = N - 1, j = M - 1; ; ) {
    sum[i] = sum[i]! + j;
    count[i] = count[i]! + 1;
    if (i === 0 && j === 0) break;
    const step = dir[i * band + (j - lo(i))];
    if (step === 0) {
      i--;
      j--;
    } else if (step === 1) i--;
    else j--;
    if (i < 0 || j < 0) break;
  }
  const map = new Float64Array(N);
  for (let i = 0; i < N; i++) map[i] = count[i] ? sum[i]! / count[i]! : i > 0 ? map[i - 1]! : 0;
  for (let i = 1; i < N; i++) if (map[i]! < map[i - 1]!) map[i] = map[i - 1]!;
  return map;
}

function flat(frames: Float32Array[], K: number): Float32Array {
  const out = new Float32Array(frames.length * K);
  frames.forEach((f, i) => out.set(f, i * K));
  return out;
}

/**
 * The reference timeline moved onto the target audio: every word and phoneme time goes through
 * the warping path; times only grow and stay inside the target's duration.
 */
export function alignTimeline(
  reference: { samples: Int16Array; sampleRate: number; timeline: SpeechTimeline },
  target: { samples: Int16Array; sampleRate: number },
): SpeechTimeline {
  const a = mfcc(reference.samples, reference.sampleRate);
  const b = mfcc(target.samples, target.sampleRate);
  const map = dtwMap(a.frames, b.frames);
  const duration = target.samples.length / target.sampleRate;
  const at = (t: number) => {
    const x = Math.max(0, Math.min(map.length - 1, t / a.hop));
    const i = Math.floor(x);
    const f = x - i;
    const j = map[i]! + (i + 1 < map.length ? (map[i + 1]! - map[i]!) * f : 0);
    return Math.min(duration, Math.max(0, j * b.hop));
  };
  const move = <T extends TimedWord | TimedPhoneme>(x: T): T => {
    const start = at(x.start);
    return { ...x, start, end: Math.max(start, at(x.end)) };
  };
  return { durationSeconds: duration, words: reference.timeline.words.map(move), phonemes: reference.timeline.phonemes.map(move) };
}
