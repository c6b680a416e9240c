// Narration loudness: the BS.1770 meter against the standard's own calibration, the limiter's
// ceiling, and the leveler bringing quiet and loud chunks to the same level.
import { describe, expect, it } from 'vitest';
import { applyGain, integratedLoudness, Leveler, NARRATION_LUFS, PEAK_CEILING_DBFS } from '../speech/loudness.js';

function sine(rate: number, seconds: number, dbfs: number, hz = 997): Int16Array {
  const a = 32767 * 10 ** (dbfs / 20);
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(a * Math.sin((2 * Math.PI * hz * i) / rate)));
}

const peakDb = (x: Int16Array) => 20 * Math.log10(x.reduce((m, v) => Math.max(m, Math.abs(v)), 0) / 32767);

describe('loudness meter', () => {
  it('reads a 997 Hz sine as BS.1770 defines it (0 dBFS: -3.01 LUFS) at the narration rate and at 48 kHz', () => {
    for (const rate of [22050, 48000]) {
      expect(integratedLoudness(sine(rate, 3, -20), rate)).toBeCloseTo(-23.01, 1);
      expect(integratedLoudness(sine(rate, 3, -6), rate)).toBeCloseTo(-9.01, 1);
    }
  });

  it('leaves silence and pauses out (gated): the pauses of a narration do not make it quieter', () => {
    const rate = 22050;
    const tone = sine(rate, 10, -20);
    const paused = new Int16Array(tone.length * 3);
    paused.set(tone, 0);
    paused.set(tone, tone.length * 2);
    // Averaged with the pause, it would read 1.8 dB lower.
    expect(Math.abs(integratedLoudness(paused, rate) - integratedLoudness(tone, rate))).toBeLessThan(0.2);
    expect(integratedLoudness(new Int16Array(rate), rate)).toBe(-Infinity);
  });
});

describe('gain with a limiter', () => {
  it('keeps every sample under the ceiling, and leaves what is far from a peak at the plain gain', () => {
    const rate = 22050;
    const x = sine(rate, 1, -30);
    for (let i = 5000; i < 5040; i++) x[i] = i % 2 ? 30000 : -30000; // a click near full scale
    const y = applyGain(x, rate, 12);
    expect(peakDb(y)).toBeLessThanOrEqual(PEAK_CEILING_DBFS + 0.01);
    // 0.4 s after the click the limiter has let go: the tone is 12 dB up.
    const gain = 10 ** (12 / 20);
    for (let i = 15000; i < 15100; i++) expect(Math.abs(y[i]! - x[i]! * gain)).toBeLessThanOrEqual(1);
    // Before the click it has not started yet (it looks ahead a few ms only).
    for (let i = 4000; i < 4050; i++) expect(Math.abs(y[i]! - x[i]! * gain)).toBeLessThanOrEqual(1);
  });
});

describe('leveler', () => {
  it('brings a narration of quiet and loud chunks to the narration level, peaks under the ceiling', () => {
    const rate = 22050;
    const leveler = new Leveler();
    const chunks = [sine(rate, 2, -25, 220), sine(rate, 3, -8, 330), sine(rate, 2, -25, 180)].map((c) => leveler.level(c, rate));
    const all = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
      expect(peakDb(c)).toBeLessThanOrEqual(PEAK_CEILING_DBFS + 0.01);
    }
    // The first chunk is set by itself; the rest refine the level of the whole.
    expect(integratedLoudness(chunks[0]!, rate)).toBeCloseTo(NARRATION_LUFS, 0);
    expect(Math.abs(integratedLoudness(all, rate) - NARRATION_LUFS)).toBeLessThanOrEqual(1.5);
  });
});
