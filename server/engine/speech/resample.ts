// Sample-rate conversion for engines that do not speak at the narration's rate (SVOX Pico:
// 16 kHz; neural packs: their model's rate) to SPEECH_SAMPLE_RATE: windowed-sinc interpolation
// (Lanczos, 8 lobes) with the kernel tabulated for 512 fractional positions, so the inner loop
// is a plain dot product (~10 ms per minute of audio).
const LOBES = 8;
const PHASES = 512;

/** Kernel tables by rate pair: a narration is resampled piece by piece. */
const tables = new Map<string, Float32Array>();

function kernel(scale: number, reach: number): Float32Array {
  const key = `${scale}:${reach}`;
  const known = tables.get(key);
  if (known) return known;
  const taps = 2 * reach;
  const sinc = (x: number) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
  // table[p * taps + t]: weight of input sample c - reach + 1 + t at fractional position p / PHASES, normalised.
  const table = new Float32Array((PHASES + 1) * taps);
  for (let p = 0; p <= PHASES; p++) {
    let norm = 0;
    for (let t = 0; t < taps; t++) {
      const d = (p / PHASES + reach - 1 - t) * scale;
      const w = Math.abs(d) < LOBES ? sinc(d) * sinc(d / LOBES) : 0;
      table[p * taps + t] = w;
      norm += w;
    }
    for (let t = 0; t < taps; t++) table[p * taps + t]! /= norm || 1;
  }
  tables.set(key, table);
  return table;
}

const clip = (acc: number) => (acc > 32767 ? 32767 : acc < -32768 ? -32768 : Math.round(acc));

export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  if (to === 2 * from) return double(samples);
  const out = new Int16Array(Math.round((samples.length * to) / from));
  const step = from / to;
  // Downsampling widens the kernel so it also filters what the lower rate cannot hold.
  const scale = Math.min(1, to / from);
  const reach = Math.ceil(LOBES / scale);
  const taps = 2 * reach;
  const table = kernel(scale, reach);
  for (let n = 0; n < out.length; n++) {
    const x = n * step;
    const c = Math.floor(x);
    const row = Math.round((x - c) * PHASES) * taps;
    const first = c - reach + 1;
    let acc = 0;
    if (first >= 0 && first + taps <= samples.length) {
      for (let t = 0; t < taps; t++) acc += samples[first + t]! * table[row + t]!;
    } else {
      for (let t = 0; t < taps; t++) {
        const k = first + t;
        if (k >= 0 && k < samples.length) acc += samples[k]! * table[row + t]!;
      }
    }
    out[n] = clip(acc);
  }
  return out;
}

/**
 * Twice the rate (the narration into the music's mix): the same kernel, but every other output
 * falls on an input sample (weight 1 there, 0 on the others) and the rest all on the half phase,
 * whose weights are symmetric: eight products per new sample, the weights held in locals. Each
 * loop is a function of its own: V8 optimises a long loop while it runs, and code past it that
 * had not run by then would send it back to the interpreter at every piece.
 */
function double(samples: Int16Array): Int16Array {
  const taps = 2 * LOBES;
  const table = kernel(1, LOBES);
  const row = (PHASES / 2) * taps;
  const half = table.slice(row, row + taps);
  const len = samples.length;
  const out = new Int16Array(2 * len);
  const inner = Math.max(LOBES - 1, len - LOBES);
  doubleAtEdges(samples, out, half, 0, Math.min(len, LOBES - 1));
  doubleInside(samples, out, half, LOBES - 1, inner);
  doubleAtEdges(samples, out, half, inner, len);
  return out;
}

/** out[2c], out[2c + 1] for input samples from..to, near the ends (taps past them count as silence). */
function doubleAtEdges(samples: Int16Array, out: Int16Array, half: Float32Array, from: number, to: number): void {
  const len = samples.length;
  for (let c = from; c < to; c++) {
    let acc = 0;
    for (let t = 0; t < half.length; t++) {
      const k = c - LOBES + 1 + t;
      if (k >= 0 && k < len) acc += samples[k]! * half[t]!;
    }
    out[2 * c] = samples[c]!;
    out[2 * c + 1] = clip(acc);
  }
}

/** out[2c], out[2c + 1] for input samples from..to, all of whose taps are inside (written out for LOBES = 8). */
function doubleInside(samples: Int16Array, out: Int16Array, half: Float32Array, from: number, to: number): void {
  const w0 = half[0]!, w1 = half[1]!, w2 = half[2]!, w3 = half[3]!, w4 = half[4]!, w5 = half[5]!, w6 = half[6]!, w7 = half[7]!;
  for (let c = from; c < to; c++) {
    const f = c - 7;
    const acc =
      w0 * (samples[f]! + samples[f + 15]!) + w1 * (samples[f + 1]! + samples[f + 14]!) + w2 * (samples[f + 2]! + samples[f + 13]!) +
      w3 * (samples[f + 3]! + samples[f + 12]!) + w4 * (samples[f + 4]! + samples[f + 11]!) + w5 * (samples[f + 5]! + samples[f + 10]!) +
      w6 * (samples[f + 6]! + samples[f + 9]!) + w7 * (samples[f + 7]! + samples[f + 8]!);
    out[2 * c] = samples[c]!;
    // Nearest (halves up), with no branch on the sign: taken at random, it was mispredicted at every other sample.
    out[2 * c + 1] = ((Math.min(32767, Math.max(-32768, acc)) + 32768.5) | 0) - 32768;
  }
}
