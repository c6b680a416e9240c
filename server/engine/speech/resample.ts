// Sample-rate conversion for engines that do not speak at the narration's rate (SVOX Pico:
// 16 kHz; neural packs: their model's rate) to SPEECH_SAMPLE_RATE: windowed-sinc interpolation
// (Lanczos, 8 lobes) with the kernel tabulated for 512 fractional positions, so the inner loop
// is a plain dot product (~10 ms per minute of audio).
const LOBES = 8;
const PHASES = 512;

export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const out = new Int16Array(Math.round((samples.length * to) / from));
  const step = from / to;
  // Downsampling widens the kernel so it also filters what the lower rate cannot hold.
  const scale = Math.min(1, to / from);
  const reach = Math.ceil(LOBES / scale);
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
    out[n] = acc > 32767 ? 32767 : acc < -32768 ? -32768 : Math.round(acc);
  }
  return out;
}
