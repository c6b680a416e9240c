// The narration's loudness over time, for the presenter's mouth: how far it opens follows how
// loud the voice is. Per 10 ms step, the RMS level in dB mapped onto 0–1 between a floor 36 dB
// under the chunk's loud syllables (its 95th percentile) and those syllables.
import type { LoudnessTrack } from '../../../shared/scene/index.js';

/** Steps per second of the track. */
export const LOUDNESS_RATE = 100;
const RANGE_DB = 36;

/** The levels (0–1) of mono 16-bit PCM, one per 1/LOUDNESS_RATE s. */
export function loudnessLevels(samples: Int16Array, sampleRate: number): number[] {
  const step = Math.max(1, Math.round(sampleRate / LOUDNESS_RATE));
  const n = Math.ceil(samples.length / step);
  const db = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    const end = Math.min(samples.length, (i + 1) * step);
    for (let j = i * step; j < end; j++) sum += samples[j]! * samples[j]!;
    const rms = Math.sqrt(sum / Math.max(1, end - i * step)) / 32768;
    db[i] = 20 * Math.log10(rms + 1e-9);
  }
  const sorted = Float64Array.from(db).sort();
  const top = sorted[Math.floor(0.95 * (n - 1))] ?? 0;
  return Array.from(db, (d) => Math.min(1, Math.max(0, (d - (top - RANGE_DB)) / RANGE_DB)));
}

/** Appends a chunk's levels at `offsetSeconds` (silence fills any gap before it). */
export function appendLoudness(track: LoudnessTrack, offsetSeconds: number, levels: readonly number[]): void {
  const at = Math.round(offsetSeconds * track.rate);
  while (track.values.length < at) track.values.push(0);
  track.values.length = at;
  track.values.push(...levels);
}
