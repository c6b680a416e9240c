// The presenter moves as a speaking person does, measured on a real render (real espeak, Skia,
// ffmpeg) with a presenter other than the template's: the mouth closes on p, b and m and opens
// as far as the voice is loud, the eyes blink at a natural rate, the head keeps moving.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blinkTimes, computeLayout, createAnimation, eyesShut, fillParams, loudnessAt, poseAt, type Rect, type SceneLayout, type SpeechTimeline } from '../../../shared/scene/index.js';
import { createEngine, type RenderEngine } from '../index.js';
import { Narration } from '../speech/narration.js';
import { SpeechSynth } from '../speech/speech.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { engineVoice } from '../speech/voices.js';
import { blinksPerMinute, closureOnBilabials, countPixels, movingPairs, pearson } from './face-motion.js';
import { decodeFrames, type Frame } from './media.js';

const TEXT = 'Maybe people make better plans by meeting in the morning. Bob bought big paper maps, but most members simply printed them.';
const FPS = 30;
let root: string;
let engine: RenderEngine;
let frames: Frame[];
let timeline: SpeechTimeline;
let layout: SceneLayout;
const synth = new SpeechSynth();

/** A box of the art (viewBox units) in frame pixels, widened by the head's reach. */
function artBox(L: SceneLayout, x0: number, y0: number, x1: number, y1: number): Rect {
  const k = L.presenterScale;
  const m = L.rig.motionMargin;
  const x = Math.floor(L.presenter.x + (x0 - m) * k);
  const y = Math.floor(L.presenter.y + (y0 - m) * k);
  return { x, y, width: Math.ceil((x1 - x0 + 2 * m) * k), height: Math.ceil((y1 - y0 + 2 * m) * k) };
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ps-motion-test-'));
  engine = (await createEngine({ cacheDir: join(root, 'cache') }))!;
  const params = fillParams('podcast-studio', { aspectRatio: '1:1' });
  const workDir = mkdtempSync(join(root, 'work-'));
  await engine.render({
    jobId: 'job_motion', text: TEXT, templateId: 'podcast-studio', voiceId: 'en-US-Ava', presenterId: 'walter', params, shortSide: 720, workDir,
    signal: new AbortController().signal, onProgress: () => undefined,
  });
  layout = computeLayout('podcast-studio', params, { width: 720, height: 720 }, 'walter');
  frames = decodeFrames(join(workDir, 'video.mp4'), 720, 720, 0, 100_000);
  // The narration as the engine speaks it.
  const narration = new Narration(new SpeechEngines(synth), TEXT, engineVoice('en-US-Ava')!, new AbortController().signal);
  while (await narration.next());
  timeline = narration.timeline;
}, 120_000);
afterAll(async () => {
  synth.close();
  await engine.close?.();
  rmSync(root, { recursive: true, force: true });
});

describe('a presenter speaking in a real render', () => {
  it('closes the mouth on p, b and m and opens it as far as the voice is loud', () => {
    const mouth = artBox(layout, 176, 236, 224, 266);
    // The mouth's dark inside shows only where the lips part.
    const opening = frames.map((f) => countPixels(f, mouth, (y) => y < 80));
    const closed = opening.map((n) => n <= 4);
    const { share, count } = closureOnBilabials(timeline.phonemes, closed, FPS);
    expect(count).toBeGreaterThanOrEqual(10);
    expect(share).toBeGreaterThanOrEqual(0.8);
    const loud = frames.map((_, i) => loudnessAt(timeline, i / FPS) ?? 0);
    expect(pearson(opening, loud)).toBeGreaterThanOrEqual(0.5);
    // The mouth is not open all the time, nor shut all the time.
    const share0 = closed.filter(Boolean).length / closed.length;
    expect(share0).toBeGreaterThan(0.2);
    expect(share0).toBeLessThan(0.8);
  });

  it('blinks where the pose says, briefly, at a natural and uneven rate', () => {
    const eyes = artBox(layout, 150, 178, 250, 204);
    // Open eyes show their whites.
    const shut = frames.map((f) => countPixels(f, eyes, (y) => y > 236) < 8);
    const anim = createAnimation(timeline);
    const want = frames.map((_, i) => eyesShut(poseAt(anim, i / FPS)));
    expect(want.some(Boolean)).toBe(true);
    const agree = shut.filter((s, i) => s === want[i]).length / shut.length;
    expect(agree).toBeGreaterThanOrEqual(0.97);
    // Over ten minutes the schedule blinks 8–25 times a minute, never like a metronome.
    const times = blinkTimes(600);
    const perMinute = times.length / 10;
    expect(perMinute).toBeGreaterThanOrEqual(8);
    expect(perMinute).toBeLessThanOrEqual(25);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    expect(Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length)).toBeGreaterThan(0.8);
    // Each blink is brief: the eyes are shut for a few frames at a time.
    const runs = shut.map((s, i) => (s && !shut[i - 1] ? shut.slice(i).findIndex((x) => !x) : 0)).filter((n) => n !== 0);
    expect(runs.length).toBeGreaterThan(0);
    expect(Math.max(...runs.map((n) => (n < 0 ? shut.length : n)))).toBeLessThanOrEqual(5);
    expect(blinksPerMinute(shut, FPS)).toBeGreaterThan(0);
  });

  it('keeps the face moving while speaking: sway, nods on stressed words, the mouth', () => {
    const face = artBox(layout, 120, 60, 280, 300);
    expect(movingPairs(frames, face)).toBeGreaterThanOrEqual(0.3);
  });
});
