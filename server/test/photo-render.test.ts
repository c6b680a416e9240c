// A photo presenter speaking, end to end through the HTTP API with the real engine (espeak-ng,
// Skia, ffmpeg): the public-domain astronaut portrait and its Face Mesh points become a
// presenter (POST /api/presenters), a render with it is refused to another user and keeps the
// presenter from being deleted while queued, and its video, decoded, shows the face speaking:
// the most-moving part of the face and the mouth's opening follow the voice's loudness, the
// mouth closes on p, b and m, the face moves in most frame pairs, the eyes blink briefly.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, Job, OUTPUT_FPS, outputSize, Presenter, PresenterList, VIDEO_EDGES } from '../../shared/contract/index.js';
import { CHIN, EYES, FOREHEAD, LIP_BOTTOM, LIP_TOP, MOUTH_CORNERS } from '../../shared/scene/face-mesh.js';
import { photoGeometry } from '../../shared/scene/photo-rig.js';
import { computeLayout, createAnimation, eyesShut, fillParams, loudnessAt, poseAt, type Rect, type SpeechTimeline } from '../../shared/scene/index.js';
import { createEngine } from '../engine/index.js';
import { Narration } from '../engine/speech/narration.js';
import { SpeechSynth } from '../engine/speech/speech.js';
import { SpeechEngines } from '../engine/speech/speech-engines.js';
import { engineVoice } from '../engine/speech/voices.js';
import { closureOnBilabials, countPixels, meanChange, movingPairs, pearson } from '../engine/test/face-motion.js';
import { decodeFrames, type Frame } from '../engine/test/media.js';
import { call, errorCode, testServer, waitFor, type TestServer } from './helpers.js';

const FIXTURES = new URL('../../tests/fixtures/', import.meta.url);
const portrait = readFileSync(new URL('astronaut.jpg', FIXTURES));
const landmarks = (JSON.parse(readFileSync(new URL('astronaut.landmarks.json', FIXTURES), 'utf8')) as { landmarks: number[][] }).landmarks;
/** About twenty seconds of speech, rich in p, b and m. */
const TEXT =
  'Maybe people make better plans by meeting in the morning. Bob bought big paper maps, but most members simply printed them. ' +
  'My mother made a map of the bay, and we paddled past the pier at sunrise. ' +
  'First, rendering is now much faster, so a one minute video is ready in a few seconds on an ordinary laptop. ' +
  'Our team tested every template in every aspect ratio, from wide screens to tall phone videos.';
const TEMPLATE = 'corporate-briefing';
const VOICE = 'en-US-Ava';
const FPS = OUTPUT_FPS;

let s: TestServer;
let alice: string;
let bob: string;
let root: string;
let presenter: Presenter;
let job: Job;
let frames: Frame[];
let crop: Rect;
let timeline: SpeechTimeline;
const synth = new SpeechSynth();

const params = fillParams(TEMPLATE, { aspectRatio: '16:9', avatar: { scale: 0.7, x: 0.7, y: 0.55 } });
const size = outputSize('16:9', 720);
const geometry = photoGeometry({ id: 'p', width: 512, height: 512, landmarks }, null);
const layout = computeLayout(TEMPLATE, params, size, geometry);
/** A landmark in frame pixels (the rig draws its still picture at the placement's whole pixel). */
const at = (i: number): [number, number] => {
  const k = layout.presenterScale;
  return [Math.round(layout.presenter.x) + (landmarks[i]![0]! * 512 - geometry.crop.x) * k, Math.round(layout.presenter.y) + (landmarks[i]![1]! * 512 - geometry.crop.y) * k];
};
/** A box around points, widened by `m` pixels, relative to the decoded crop. */
const around = (ids: readonly number[], m: number, below = 0, origin: { x: number; y: number } = crop): Rect => {
  const pts = ids.map(at);
  const x0 = Math.floor(Math.min(...pts.map((p) => p[0])) - m);
  const y0 = Math.floor(Math.min(...pts.map((p) => p[1])) - m);
  const x1 = Math.ceil(Math.max(...pts.map((p) => p[0])) + m);
  const y1 = Math.ceil(Math.max(...pts.map((p) => p[1])) + m + below);
  return { x: x0 - origin.x, y: y0 - origin.y, width: x1 - x0, height: y1 - y0 };
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ps-photo-render-'));
  const engine = await createEngine({ cacheDir: join(root, 'engine-cache') });
  s = await testServer({ dataDir: join(root, 'data'), engine, concurrency: 1 });
  alice = await s.userKey('alice');
  bob = await s.userKey('bob');
  const up = await fetch(`${s.url}/api/assets?name=astronaut.jpg`, { method: 'POST', headers: { authorization: `Bearer ${alice}`, 'content-type': 'image/jpeg' }, body: new Uint8Array(portrait) });
  const photo = Asset.parse(await up.json());
  const made = await call(`${s.url}/api/presenters`, { key: alice, json: { name: 'Eileen', assetId: photo.id, landmarks } });
  expect(made.status, made.text).toBe(201);
  presenter = Presenter.parse(made.body);
  // The narration as the engine speaks it, after the video's lead-in: its phonemes and loudness, to compare the frames with.
  const narration = new Narration(new SpeechEngines(synth), TEXT, engineVoice(VOICE)!, new AbortController().signal, VIDEO_EDGES.leadInSeconds);
  while (await narration.next());
  timeline = narration.timeline;
}, 120_000);
afterAll(async () => {
  synth.close();
  await s?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('a photo presenter through the API', () => {
  it('is listed for its owner only, and another user cannot render with it', async () => {
    const mine = PresenterList.parse((await call(`${s.url}/api/presenters`, { key: alice })).body).presenters;
    expect(mine.find((p) => p.id === presenter.id)).toMatchObject({ kind: 'photo', builtIn: false, name: 'Eileen' });
    expect(mine.filter((p) => p.builtIn).length).toBeGreaterThanOrEqual(12);
    const theirs = PresenterList.parse((await call(`${s.url}/api/presenters`, { key: bob })).body).presenters;
    expect(theirs.some((p) => p.id === presenter.id)).toBe(false);
    const refused = await call(`${s.url}/api/render`, { key: bob, json: { text: 'Hello.', templateId: TEMPLATE, voiceId: VOICE, presenterId: presenter.id } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([{ path: 'presenterId', message: expect.stringContaining('unknown presenter') }]);
  });

  it('renders, and cannot be deleted while its job is queued or rendering', async () => {
    const created = await call(`${s.url}/api/render`, { key: alice, json: { text: TEXT, templateId: TEMPLATE, voiceId: VOICE, presenterId: presenter.id, params } });
    expect(created.status, created.text).toBe(202);
    const busy = await call(`${s.url}/api/presenters/${presenter.id}`, { key: alice, method: 'DELETE' });
    expect(busy.status).toBe(409);
    expect(errorCode(busy)).toBe('presenter_in_use');
    expect(busy.body.error.message).toContain(created.body.id);
    job = await waitFor(async () => {
      const j = Job.parse((await call(`${s.url}/api/jobs/${created.body.id}`, { key: alice })).body);
      return ['completed', 'failed', 'canceled'].includes(j.status) ? j : null;
    }, 150_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = await fetch(`${s.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${alice}` } });
    const file = join(root, 'video.mp4');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    // Only the face's surroundings are decoded: the measurements look nowhere else.
    const face = around([FOREHEAD, CHIN, ...EYES.flatMap((e) => [...e.upper]), ...MOUTH_CORNERS], 40, 0, { x: 0, y: 0 });
    const even = (v: number) => Math.floor(v / 2) * 2;
    crop = { x: even(face.x), y: even(face.y), width: even(face.width), height: even(face.height) };
    frames = decodeFrames(file, size.width, size.height, 0, 100_000, crop);
    expect(frames.length).toBeGreaterThan(FPS * 10);
  }, 200_000);

  it('opens the mouth as far as the voice is loud and closes it on p, b and m', () => {
    const mouth = around([LIP_TOP, LIP_BOTTOM, ...MOUTH_CORNERS], 6, 0.3 * Math.abs(at(MOUTH_CORNERS[1])[0] - at(MOUTH_CORNERS[0])[0]));
    const dark = (y: number) => y < 55;
    const rest = countPixels(frames[0]!, mouth, dark);
    const opening = frames.map((f) => Math.max(0, countPixels(f, mouth, dark) - rest));
    const closed = opening.map((n) => n <= 6);
    const { share, count } = closureOnBilabials(timeline.phonemes, closed, FPS);
    expect(count).toBeGreaterThanOrEqual(12);
    expect(share).toBeGreaterThanOrEqual(0.8);
    const loud = frames.map((_, i) => loudnessAt(timeline, i / FPS) ?? 0);
    expect(pearson(opening, loud)).toBeGreaterThanOrEqual(0.5);
  });

  it("moves the face in most frame pairs, its most-moving part with the voice's loudness", () => {
    const faceBox = around([FOREHEAD, CHIN, ...MOUTH_CORNERS, ...EYES.flatMap((e) => [e.upper[0]!, e.upper[e.upper.length - 1]!])], 0);
    expect(movingPairs(frames, faceBox)).toBeGreaterThanOrEqual(0.3);
    // The face in a 4 × 4 grid: the cell whose picture changes most over the video, against the loudness.
    const cells: Rect[] = [];
    for (let j = 0; j < 4; j++) {
      for (let i = 0; i < 4; i++) {
        const w = Math.floor(faceBox.width / 4);
        const h = Math.floor(faceBox.height / 4);
        cells.push({ x: faceBox.x + i * w, y: faceBox.y + j * h, width: w, height: h });
      }
    }
    const change = cells.map((c) => frames.map((f) => meanChange(frames[0]!, f, c)));
    const spread = change.map((xs) => {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      return xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length;
    });
    const most = change[spread.indexOf(Math.max(...spread))]!;
    const loud = frames.map((_, i) => loudnessAt(timeline, i / FPS) ?? 0);
    expect(pearson(most, loud)).toBeGreaterThanOrEqual(0.3);
  });

  it('blinks where the pose says, each blink brief', () => {
    const eyes = EYES.map((e) => around([...e.upper, ...e.lower], 3));
    // Open eyes show their dark irises and lashes; shut, the lid's skin covers them.
    const darkness = frames.map((f) => eyes.reduce((n, b) => n + countPixels(f, b, (y) => y < 70), 0));
    const open = [...darkness].sort((a, b) => a - b)[Math.floor(darkness.length / 2)]!;
    const shut = darkness.map((n) => n < open * 0.45);
    const anim = createAnimation(timeline);
    const want = frames.map((_, i) => eyesShut(poseAt(anim, i / FPS)));
    expect(want.some(Boolean)).toBe(true);
    const agree = shut.filter((v, i) => v === want[i]).length / shut.length;
    expect(agree).toBeGreaterThanOrEqual(0.95);
    const runs = shut.map((v, i) => (v && !shut[i - 1] ? shut.slice(i).findIndex((x) => !x) : 0)).filter((n) => n !== 0);
    expect(runs.length).toBeGreaterThan(0);
    expect(Math.max(...runs.map((n) => (n < 0 ? shut.length : n)))).toBeLessThanOrEqual(6);
  });
});
