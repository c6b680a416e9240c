// Sample-rate conversion for engines that do not speak at the narration's rate (SVOX Pico:
// 16 kHz; neural packs: their model's rate) to SPEECH_SAMPLE_RATE: windowed-sinc interpolation
// (Lanczos, 8 lobes), enough for speech and ~20 ms of CPU per minute of audio.
const LOBES = 8;

export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const out = new Int16Array(Math.round((samples.length * to) / from));
  const step = from / to;
  // Downsampling widens the kernel so it also filters what the lower rate cannot hold.
  const scale = Math.min(1, to / from);
  const reach = Math.ceil(LOBES / scale);
  const sinc = (x: number) => (x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x));
  for (let n = 0; n < out.length; n++) {
    const x = n * step;
    const c = Math.floor(x);
    let acc = 0;
    let norm = 0;
    for (let k = c - reach + 1; k <= c + reach; k++) {
      if (k < 0 || k >= samples.length) continue;
      const d = (x - k) * scale;
      if (Math.abs(d) >= LOBES) continue;
      const w = sinc(d) * sinc(d / LOBES);
      acc += samples[k]! * w;
      norm += w;
    }
    out[n] = Math.max(-32768, Math.min(32767, Math.round(norm ? acc / norm : 0)));
  }
  return out;
}
