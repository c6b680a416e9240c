// Makes the built-in music tracks (resources/music/): a small additive synthesiser (soft pads,
// a bass and a plucked arpeggio over a chord progression), rendered into a circular buffer so a
// track loops without a seam, written as PCM to ffmpeg and encoded as MP3. The tracks are the
// project's own work, under its licence (resources/music/LICENSE.md).
// npx tsx tools/music/make-tracks.ts
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegPath } from '../../server/media-binaries.js';
import { MusicTrackList } from '../../shared/contract/music-tracks.js';

const RATE = 44100;
const OUT = join(import.meta.dirname, '../../resources/music');

interface Style {
  id: string;
  name: string;
  bpm: number;
  /** Chords as MIDI notes, one per bar. */
  chords: number[][];
  /** Arpeggio notes per bar (0: none) and the pluck's brightness. */
  arp: number;
  bright: number;
  padLevel: number;
}

const STYLES: Style[] = [
  { id: 'calm-morning', name: 'Calm morning', bpm: 80, chords: [[60, 64, 67, 71], [57, 60, 64, 67], [53, 57, 60, 64], [55, 59, 62, 67]], arp: 8, bright: 0.35, padLevel: 0.22 },
  { id: 'bright-steps', name: 'Bright steps', bpm: 104, chords: [[62, 66, 69], [59, 62, 66], [55, 59, 62], [57, 61, 64]], arp: 16, bright: 0.6, padLevel: 0.16 },
  { id: 'quiet-focus', name: 'Quiet focus', bpm: 70, chords: [[57, 60, 64], [53, 57, 60], [48, 52, 55], [55, 59, 62]], arp: 4, bright: 0.2, padLevel: 0.26 },
];
const BARS = 8; // the progression twice

const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** A deterministic pseudo-random number generator (the tracks are the same at every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function render(style: Style): { left: Float32Array; right: Float32Array } {
  const beat = 60 / style.bpm;
  const bar = 4 * beat;
  const n = Math.round(BARS * bar * RATE);
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  const random = rng(style.bpm * 7919);
  /** Adds a note at `start` seconds (wrapping past the end: the loop has no seam). */
  const note = (freq: number, start: number, length: number, level: number, pan: number, voice: (t: number, f: number) => number) => {
    const first = Math.round(start * RATE);
    const count = Math.round(length * RATE);
    const l = level * Math.cos(((pan + 1) * Math.PI) / 4);
    const r = level * Math.sin(((pan + 1) * Math.PI) / 4);
    for (let i = 0; i < count; i++) {
      const v = voice(i / RATE, freq);
      const k = (first + i) % n;
      left[k]! += v * l;
      right[k]! += v * r;
    }
  };
  const pad = (len: number) => (t: number, f: number) => {
    const env = Math.min(1, t / 1.2) * Math.min(1, Math.max(0, (len - t) / 1.5));
    const vib = 1 + 0.002 * Math.sin(2 * Math.PI * 5 * t);
    let s = 0;
    for (const [h, a] of [[1, 1], [2, 0.35], [3, 0.12]] as const) s += a * Math.sin(2 * Math.PI * f * h * vib * t) + a * 0.6 * Math.sin(2 * Math.PI * f * h * 1.003 * t);
    return env * s * 0.5;
  };
  const bass = (t: number, f: number) => Math.min(1, t / 0.02) * Math.exp(-t * 1.5) * (Math.sin(2 * Math.PI * f * t) + 0.25 * Math.sin(4 * Math.PI * f * t));
  const pluck = (t: number, f: number) => {
    const env = Math.min(1, t / 0.004) * Math.exp(-t * 5);
    let s = 0;
    for (let h = 1; h <= 5; h++) s += (style.bright ** (h - 1)) * Math.sin(2 * Math.PI * f * h * t) / h;
    return env * s;
  };
  for (let b = 0; b < BARS; b++) {
    const chord = style.chords[b % style.chords.length]!;
    const t0 = b * bar;
    chord.forEach((m, i) => note(hz(m), t0, bar + 1.5, style.padLevel / chord.length, (i / (chord.length - 1)) * 1.2 - 0.6, pad(bar + 1.5)));
    note(hz(chord[0]! - 24), t0, bar, 0.3, 0, bass);
    note(hz(chord[0]! - 24), t0 + 2 * beat, 2 * beat, 0.22, 0, bass);
    const step = bar / style.arp;
    for (let k = 0; k < style.arp; k++) {
      const m = chord[(k + (random() < 0.2 ? 1 : 0)) % chord.length]! + 12;
      note(hz(m), t0 + k * step, 1.2, 0.12 * (k % 2 ? 0.8 : 1), Math.sin(k) * 0.5, pluck);
    }
  }
  // Peak at -3 dBFS; the engine levels music by its loudness anyway.
  let peak = 0;
  for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(left[i]!), Math.abs(right[i]!));
  const g = 0.7 / peak;
  for (let i = 0; i < n; i++) {
    left[i]! *= g;
    right[i]! *= g;
  }
  return { left, right };
}

const list: MusicTrackList = { tracks: [] };
for (const style of STYLES) {
  const { left, right } = render(style);
  const pcm = new Float32Array(left.length * 2);
  for (let i = 0; i < left.length; i++) {
    pcm[2 * i] = left[i]!;
    pcm[2 * i + 1] = right[i]!;
  }
  const file = `${style.id}.mp3`;
  const r = spawnSync(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'f32le', '-ar', String(RATE), '-ac', '2', '-i', 'pipe:0', '-c:a', 'libmp3lame', '-b:a', '112k', join(OUT, file)], { input: Buffer.from(pcm.buffer) });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr.toString()}`);
  list.tracks.push({ id: style.id, name: style.name, file, durationSeconds: Math.round((left.length / RATE) * 100) / 100 });
  console.log(file, (left.length / RATE).toFixed(1), 's');
}
writeFileSync(join(OUT, 'tracks.json'), `${JSON.stringify(MusicTrackList.parse(list), null, 2)}\n`);
