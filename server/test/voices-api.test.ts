// Voices through the HTTP API with the real engine: the catalog carries engine, quality tier and
// download size; a neural voice's pack is downloaded by the studio on request (POST), its
// progress and state read back (GET); renders in a SVOX Pico voice and in a freshly installed
// neural voice complete with captions timed inside the video.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, Voice, VoicePackStatus } from '../../shared/contract/index.js';
import { RESOURCES_DIR } from '../engine/frames/assets.js';
import { createEngine } from '../engine/index.js';
import { probe } from '../engine/test/media.js';
import { servePiperPack, tinyPiperConfig, tinyPiperModel } from '../engine/test/tiny-onnx.js';
import { VoiceFile } from '../engine/speech/voices.js';
import { call, testServer, waitFor, type TestServer } from './helpers.js';

let s: TestServer;
let key: string;
let pack: Awaited<ReturnType<typeof servePiperPack>>;
const model = tinyPiperModel();
const config = tinyPiperConfig();
const catalogDir = mkdtempSync(join(tmpdir(), 'ps-voices-catalog-'));

beforeAll(async () => {
  pack = await servePiperPack();
  // The bundled catalog plus neural voices served from the local pack server: one installed on
  // request, one left for the first render to download.
  copyFileSync(join(RESOURCES_DIR, 'templates.json'), join(catalogDir, 'templates.json'));
  const shipped = VoiceFile.parse(JSON.parse(readFileSync(join(RESOURCES_DIR, 'voices.json'), 'utf8')));
  writeFileSync(join(catalogDir, 'voices.json'), JSON.stringify({ voices: [...shipped.voices, pack.voice('en-US-Tiny', '9001', 'Tiny'), pack.voice('en-US-Tina', '9002', 'Tina')] }));
  const dataDir = mkdtempSync(join(tmpdir(), 'ps-voices-'));
  const engine = await createEngine({ cacheDir: join(dataDir, 'engine-cache'), catalogDir, warmSpeech: false });
  s = await testServer({ dataDir, engine, catalogDir, concurrency: 1 });
  key = await s.userKey('creator');
});
afterAll(async () => {
  await s.stop();
  pack.close();
  rmSync(s.dataDir, { recursive: true, force: true });
  rmSync(catalogDir, { recursive: true, force: true });
});

const settle = (id: string) =>
  waitFor(async () => {
    const j = (await call(`${s.url}/api/jobs/${id}`, { key })).body as Job;
    return ['completed', 'failed', 'canceled'].includes(j.status) ? j : null;
  }, 90_000);

async function renderWith(voiceId: string, text: string): Promise<{ job: Job; vtt: string; duration: number }> {
  const created = await call(`${s.url}/api/render`, { key, json: { text, templateId: 'corporate-briefing', voiceId } });
  expect(created.status).toBe(202);
  const job = await settle((created.body as Job).id);
  expect(job.error).toBeNull();
  expect(job.status).toBe('completed');
  const vtt = (await call(`${s.url}${job.output!.captionsUrl}`, { key })).text;
  const res = await fetch(`${s.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${key}` } });
  const file = join(s.dataDir, `${voiceId}.mp4`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { job, vtt, duration: probe(file).duration };
}

const seconds = (m: RegExpMatchArray) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
/** The times of a word-timed WebVTT file in speaking order: each cue's start, then its words' inline timestamps. */
const cueTimes = (vtt: string) =>
  vtt.split(/\n\n+/).flatMap((block) => {
    const start = /^(\d+):(\d+):(\d+)\.(\d+) -->/m.exec(block);
    return start ? [seconds(start), ...[...block.matchAll(/<(\d+):(\d+):(\d+)\.(\d+)>/g)].map(seconds)] : [];
  });
/** The latest time a WebVTT file names (cue ends included). */
const lastTime = (vtt: string) => Math.max(...[...vtt.matchAll(/(\d+):(\d+):(\d+)\.(\d+)/g)].map(seconds));

describe('the voice catalog over the API', () => {
  it('labels every voice with its engine and quality tier; neural voices with their download size', async () => {
    const { voices } = (await call(`${s.url}/api/voices`, { key })).body as { voices: Voice[] };
    expect(voices.length).toBeGreaterThanOrEqual(25);
    for (const v of voices) expect(['espeak', 'pico', 'flite', 'piper', 'kokoro']).toContain(v.engine);
    expect(voices.find((v) => v.id === 'en-US-Richard')).toMatchObject({ engine: 'flite', quality: 'standard', gender: 'male' });
    expect(voices.find((v) => v.id === 'en-US-Richard')!.downloadBytes).toBeUndefined();
    expect(voices.find((v) => v.id === 'ar-SA-Hamed')).toMatchObject({ engine: 'espeak', locale: 'ar-SA' });
    expect(voices.filter((v) => v.engine === 'kokoro' && v.downloadBytes! > 300e6).length).toBeGreaterThanOrEqual(4);
    expect(voices.find((v) => v.id === 'it-IT-Chiara')).toMatchObject({ engine: 'pico', quality: 'standard' });
    expect(voices.find((v) => v.id === 'en-US-Ava')).toMatchObject({ engine: 'espeak', quality: 'basic' });
    expect(voices.find((v) => v.id === 'en-US-Ava')!.downloadBytes).toBeUndefined();
    expect(voices.find((v) => v.id === 'en-US-Tiny')).toMatchObject({ engine: 'piper', quality: 'natural', downloadBytes: model.length + config.length, licence: 'Test data, not a voice' });
  });

  it('answers a pack state for voices that ship (builtin) and a 404 error body for an unknown voice', async () => {
    expect((await call(`${s.url}/api/voices/en-US-Ava/pack`, { key })).body).toEqual({ state: 'builtin' });
    const missing = await call(`${s.url}/api/voices/xx-XX-Nobody/pack`, { key });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'not_found' } });
    expect((await call(`${s.url}/api/voices/en-US-Ava/pack`, { key, method: 'DELETE' })).status).toBe(405);
  });
});

describe('a SVOX Pico voice', () => {
  it('renders a video whose captions are timed inside it', async () => {
    const { vtt, duration } = await renderWith('it-IT-Chiara', 'Buongiorno a tutti. Oggi parliamo delle novità della settimana.');
    expect(vtt).toContain('Buongiorno');
    expect(vtt).toContain('settimana.');
    const times = cueTimes(vtt);
    expect(lastTime(vtt)).toBeLessThanOrEqual(duration + 0.05);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('a Flite voice (male, standard, ships with the studio)', () => {
  it('renders a video whose captions are timed inside it', async () => {
    const { vtt, duration } = await renderWith('en-US-Richard', 'Good morning, everyone. Here is what changed this week.');
    expect(vtt).toContain('Good');
    expect(vtt).toContain('week.');
    const times = cueTimes(vtt);
    expect(lastTime(vtt)).toBeLessThanOrEqual(duration + 0.05);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('a neural voice pack', () => {
  it('is missing, then downloads on request with its progress, then is installed and renders', async () => {
    pack.requests.length = 0;
    const url = `${s.url}/api/voices/en-US-Tiny/pack`;
    expect((await call(url, { key })).body).toMatchObject({ state: 'missing', receivedBytes: 0, totalBytes: model.length + config.length });
    // Its sample is spoken by the voice itself: not before the download (a GET downloads nothing).
    const early = await call(`${s.url}/api/voices/en-US-Tiny/sample`, { key });
    expect(early.status).toBe(404);
    expect(early.body).toMatchObject({ error: { code: 'not_ready', message: expect.stringMatching(/download the voice/) } });
    expect(pack.requests).toEqual([]);
    const started = (await call(url, { key, method: 'POST' })).body as VoicePackStatus;
    expect(['downloading', 'installed']).toContain(started.state);
    const done = await waitFor(async () => {
      const st = (await call(url, { key })).body as VoicePackStatus;
      return st.state === 'downloading' ? null : st;
    }, 20_000);
    expect(done).toMatchObject({ state: 'installed', receivedBytes: model.length + config.length });
    // Installing again downloads nothing.
    expect(((await call(url, { key, method: 'POST' })).body as VoicePackStatus).state).toBe('installed');
    expect(pack.requests).toEqual(['/model.onnx', '/config.json']);
    const sample = await fetch(`${s.url}/api/voices/en-US-Tiny/sample`, { headers: { authorization: `Bearer ${key}` } });
    expect(sample.status).toBe(200);
    expect(Buffer.from(await sample.arrayBuffer()).subarray(0, 4).toString()).toBe('RIFF');

    const { vtt, duration } = await renderWith('en-US-Tiny', 'Good morning, and welcome to the weekly update.');
    expect(vtt).toContain('weekly');
    expect(lastTime(vtt)).toBeLessThanOrEqual(duration + 0.05);
    expect(pack.requests).toHaveLength(2);
  });

  it('is waited for by a render sent while it downloads (a missing pack is refused at submit)', async () => {
    pack.requests.length = 0;
    expect(((await call(`${s.url}/api/voices/en-US-Tina/pack`, { key })).body as VoicePackStatus).state).toBe('missing');
    const refused = await call(`${s.url}/api/render`, { key, json: { text: 'Hello.', templateId: 'corporate-briefing', voiceId: 'en-US-Tina' } });
    expect(refused.status).toBe(422);
    await call(`${s.url}/api/voices/en-US-Tina/pack`, { key, method: 'POST' });
    const { vtt } = await renderWith('en-US-Tina', 'Good morning, and welcome to the weekly update.');
    expect(vtt).toContain('weekly');
    // Its files are those of en-US-Tiny's pack: copied from it (checked again), not downloaded.
    expect(pack.requests).toEqual([]);
    expect(((await call(`${s.url}/api/voices/en-US-Tina/pack`, { key })).body as VoicePackStatus).state).toBe('installed');
  });
});
