// Extension `sound`, music: a render request's music is checked against the caller's assets
// (each problem names its field), held while a job needs it, and mixed by the real engine under
// the narration: measured in the downloaded video with ffmpeg (EBU R128 loudness and true peak,
// the music's level in a pause against its level under speech).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, Job, SOUND_LIMITS, VIDEO_EDGES } from '../../shared/contract/index.js';
import { createEngine } from '../engine/index.js';
import { loudness, probe } from '../engine/test/media.js';
import { picture, testFfmpeg } from './fixtures/media.js';
import { call, errorCode, testServer, waitFor, type Res, type TestServer } from './helpers.js';

let scratch: string;
let music: Buffer;

/** Stereo music whose channels are independent noise: its side signal (L - R) is the music alone, whatever the narration (centred) does. */
function noiseMusic(seconds: number): Buffer {
  const out = join(scratch, `music-${seconds}.mp3`);
  const src = (seed: number) => ['-f', 'lavfi', '-i', `anoisesrc=c=pink:seed=${seed}:amplitude=0.3:d=${seconds}`];
  execFileSync(testFfmpeg(), ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...src(1), ...src(2), '-filter_complex', '[0][1]amerge=inputs=2', '-c:a', 'libmp3lame', '-b:a', '128k', out]);
  return readFileSync(out);
}

async function put(url: string, key: string, name: string, type: string, bytes: Buffer): Promise<string> {
  const r = await fetch(`${url}/api/assets?name=${encodeURIComponent(name)}`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body: new Uint8Array(bytes),
  });
  expect(r.status).toBe(201);
  return Asset.parse(await r.json()).id;
}

function refused(r: Res): Record<string, string> {
  expect(r.status, r.text).toBe(422);
  expect(errorCode(r)).toBe('validation_failed');
  return Object.fromEntries((r.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]));
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ps-music-'));
  music = noiseMusic(6);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('music in a render request', () => {
  let server: TestServer;
  let alice: string;
  const ids = { sound: '', picture: '', bobs: '' };
  const render = (body: object) => call(`${server.url}/api/render`, { key: alice, json: { templateId: 'newsroom', voiceId: 'en-US-Ava', text: 'Hello there.', ...body } });

  beforeAll(async () => {
    server = await testServer({ concurrency: 0 }); // jobs stay queued
    alice = await server.userKey('alice');
    const bob = await server.userKey('bob');
    ids.sound = await put(server.url, alice, 'theme.mp3', 'audio/mpeg', music);
    ids.picture = await put(server.url, alice, 'slide.png', 'image/png', picture(64, 64, 'png'));
    ids.bobs = await put(server.url, bob, 'bobs.mp3', 'audio/mpeg', music);
  }, 60_000);
  afterAll(() => server?.stop());

  it("an unknown asset, another user's, a picture, a volume out of 0–1: 422 naming the field", async () => {
    expect(refused(await render({ music: { assetId: 'ast_00000000000000000000000000' } }))['music.assetId']).toMatch(/no asset/);
    expect(refused(await render({ music: { assetId: ids.bobs } }))['music.assetId']).toMatch(/no asset/);
    expect(refused(await render({ music: { assetId: ids.picture } }))['music.assetId']).toMatch(/"slide.png" is an image; music is a sound/);
    expect(refused(await render({ music: { assetId: ids.sound, volume: 1.5 } }))['music.volume']).toMatch(/between 0 and 1/);
    expect(refused(await render({ music: { assetId: ids.sound, volume: -0.1 } }))['music.volume']).toMatch(/between 0 and 1/);
    expect(Object.keys(refused(await render({ music: { assetId: ids.sound, duck: 'yes', loud: true } }))).sort()).toEqual(['music.duck', 'music.loud']);
  });

  it('the job carries the music with its defaults filled; the asset cannot be deleted while the job waits', async () => {
    const r = await render({ music: { assetId: ids.sound } });
    expect(r.status, r.text).toBe(202);
    const job = Job.parse(r.body);
    expect(job.music).toEqual({ assetId: ids.sound, volume: SOUND_LIMITS.musicVolumeDefault, duck: true });
    expect(Job.parse((await call(`${server.url}/api/jobs/${job.id}`, { key: alice })).body).music).toEqual(job.music);
    expect(Job.parse((await render({ music: { assetId: ids.sound, volume: 0.6, duck: false } })).body).music).toEqual({ assetId: ids.sound, volume: 0.6, duck: false });
    const del = await call(`${server.url}/api/assets/${ids.sound}`, { key: alice, method: 'DELETE' });
    expect(del.status).toBe(409);
    expect(errorCode(del)).toBe('asset_in_use');
    expect(del.body.error.message).toContain(job.id);
    // A job without music has no music field.
    expect('music' in (await render({})).body).toBe(false);
  });

  it('a sound preview with a bad voice, a picture as music or an empty text: 422 naming the field', async () => {
    const preview = (json: object) => call(`${server.url}/api/sound/preview`, { key: alice, json });
    const d = refused(await preview({ text: 'Hi.', voiceId: 'xx-XX-Nobody', music: { assetId: ids.picture } }));
    expect(Object.keys(d).sort()).toEqual(['music.assetId', 'voiceId']);
    expect(Object.keys(refused(await preview({ text: ' ', voiceId: 'en-US-Ava', music: { assetId: ids.sound } })))).toEqual(['text']);
  });
});

describe('a render with music, through the API and the real engine', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ps-music-e2e-'));
    const engine = await createEngine({ cacheDir: join(dataDir, 'engine-cache') });
    server = await testServer({ dataDir, engine, concurrency: 1 });
    key = await server.userKey('creator');
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  });

  const rendered = async (body: object): Promise<{ job: Job; file: string }> => {
    const r = await call(`${server.url}/api/render`, { key, json: { templateId: 'social-short', voiceId: 'en-US-Ava', params: { aspectRatio: '9:16' }, ...body } });
    expect(r.status, r.text).toBe(202);
    const job = await waitFor(async () => {
      const j = Job.parse((await call(`${server.url}/api/jobs/${r.body.id}`, { key })).body);
      return j.status === 'completed' || j.status === 'failed' ? j : null;
    }, 120_000);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const res = await fetch(`${server.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${key}` } });
    const file = join(scratch, `${job.id}.mp4`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return { job, file };
  };

  it('is stereo at -14 LUFS, peaks under -1 dBTP, and the music is at least 10 dB louder in a pause than under speech', async () => {
    const id = await put(server.url, key, 'noise.mp3', 'audio/mpeg', music);
    // The first scene lasts well past its words: a pause of a few seconds before the second.
    const { job, file } = await rendered({
      scenes: [{ text: 'Welcome to the show. The music plays under my voice.', minSeconds: 7 }, { text: 'And now it is quiet again, under my words.' }],
      music: { assetId: id },
    });
    const level = loudness(file);
    expect(Math.abs(level.lufs - SOUND_LIMITS.loudnessLufs), `${level.lufs} LUFS`).toBeLessThanOrEqual(1);
    expect(level.truePeak).toBeLessThanOrEqual(SOUND_LIMITS.truePeakDbtp);
    expect(channels(file)).toBe(2);
    expect(Math.abs(probe(file).duration - job.output!.durationSeconds)).toBeLessThan(0.1);

    const w = windows(file);
    // Speech: the centre far above the side. Pause: between the first and the last speech, the centre no louder than the side (music alone).
    const speech = w.filter((x) => x.mid - x.side > 15);
    const first = w.indexOf(speech[0]!);
    const last = w.lastIndexOf(speech[speech.length - 1]!);
    const pause = longestRun(w.slice(first, last), (x) => Math.abs(x.mid - x.side) < 5);
    expect(pause.length * WINDOW_SECONDS).toBeGreaterThan(1.5);
    const inPause = median(pause.map((x) => x.side));
    const underSpeech = median(speech.map((x) => x.side));
    expect(inPause - underSpeech, `music ${inPause.toFixed(1)} dB in the pause, ${underSpeech.toFixed(1)} dB under speech`).toBeGreaterThanOrEqual(10);
    // The lead-in: no speech before it; the music is there (faded in).
    expect(first * WINDOW_SECONDS).toBeGreaterThanOrEqual(VIDEO_EDGES.leadInSeconds - 0.15);
    expect(median(w.slice(3, 6).map((x) => x.side))).toBeGreaterThan(underSpeech + 6);
    // The end: faded out, no click.
    expect(w[w.length - 1]!.side).toBeLessThan(inPause - 20);
  }, 180_000);

  it("previews a scene's sound: its narration with the music under it, as the video will have it (MP3, stereo, -14 LUFS)", async () => {
    const id = await put(server.url, key, 'preview.mp3', 'audio/mpeg', music);
    const res = await fetch(`${server.url}/api/sound/preview`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'A short line to hear with the music.', voiceId: 'en-US-Ava', music: { assetId: id, volume: 0.5 } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const file = join(scratch, 'preview.mp3');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    expect(channels(file)).toBe(2);
    const level = loudness(file);
    expect(Math.abs(level.lufs - SOUND_LIMITS.loudnessLufs), `${level.lufs} LUFS`).toBeLessThanOrEqual(1);
    const w = windows(file);
    expect(w.length * WINDOW_SECONDS).toBeGreaterThan(VIDEO_EDGES.leadInSeconds + VIDEO_EDGES.tailSeconds + 1);
    // Music alone in the lead-in, ducked under the words.
    const speech = w.filter((x) => x.mid - x.side > 15);
    expect(speech.length).toBeGreaterThan(5);
    expect(median(w.slice(3, 6).map((x) => x.side)) - median(speech.map((x) => x.side))).toBeGreaterThanOrEqual(10);
  }, 120_000);

  it("deleting a music asset removes the engine's decoded copy of it", async () => {
    const track = noiseMusic(4);
    const id = await put(server.url, key, 'to-delete.mp3', 'audio/mpeg', track);
    const res = await fetch(`${server.url}/api/sound/preview`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'A line to hear once.', voiceId: 'en-US-Ava', music: { assetId: id } }),
    });
    expect(res.status).toBe(200);
    // The cache is keyed by the file's bytes.
    const stored = join(server.dataDir, 'engine-cache', 'music', `${createHash('sha1').update(track).digest('hex')}.pcm`);
    await waitFor(async () => existsSync(stored) || null, 10_000);
    const del = await call(`${server.url}/api/assets/${id}`, { key, method: 'DELETE' });
    expect(del.status, del.text).toBe(204);
    expect(existsSync(stored)).toBe(false);
    expect(existsSync(stored.replace(/\.pcm$/, '.json'))).toBe(false);
  }, 60_000);

  it('without music: mono narration, still at -14 LUFS under -1 dBTP, speech after the lead-in', async () => {
    const { file } = await rendered({ text: 'Good evening. Here is the news, at the level every video has.' });
    const level = loudness(file);
    expect(Math.abs(level.lufs - SOUND_LIMITS.loudnessLufs), `${level.lufs} LUFS`).toBeLessThanOrEqual(1);
    expect(level.truePeak).toBeLessThanOrEqual(SOUND_LIMITS.truePeakDbtp);
    expect(channels(file)).toBe(1);
    const w = windows(file);
    const firstSpeech = w.findIndex((x) => x.mid > -40);
    const lastSpeech = w.length - 1 - [...w].reverse().findIndex((x) => x.mid > -40);
    expect(firstSpeech * WINDOW_SECONDS).toBeGreaterThanOrEqual(VIDEO_EDGES.leadInSeconds - 0.15);
    expect((w.length - 1 - lastSpeech) * WINDOW_SECONDS).toBeGreaterThanOrEqual(VIDEO_EDGES.tailSeconds - 0.25);
  }, 180_000);
});

const WINDOW_SECONDS = 0.1;

function channels(file: string): number {
  return Number(execFileSync(process.env.FFPROBE_PATH ?? 'ffprobe', ['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=channels', '-of', 'csv=p=0', file]).toString().trim());
}

/** The audio's centre (L + R) / 2 and side (L - R) / 2 levels (dBFS RMS) in 100 ms windows. */
function windows(file: string): { mid: number; side: number }[] {
  const raw = execFileSync(testFfmpeg(), ['-v', 'error', '-i', file, '-map', '0:a', '-f', 'f32le', '-ac', '2', '-ar', '44100', 'pipe:1'], { maxBuffer: 1 << 28 });
  const x = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const n = 44100 * WINDOW_SECONDS;
  const out: { mid: number; side: number }[] = [];
  const db = (p: number) => 10 * Math.log10(p / n + 1e-12);
  for (let s = 0; s + 2 * n <= x.length; s += 2 * n) {
    let mid = 0;
    let side = 0;
    for (let i = s; i < s + 2 * n; i += 2) {
      mid += ((x[i]! + x[i + 1]!) / 2) ** 2;
      side += ((x[i]! - x[i + 1]!) / 2) ** 2;
    }
    out.push({ mid: db(mid), side: db(side) });
  }
  return out;
}

function longestRun<T>(xs: T[], ok: (x: T) => boolean): T[] {
  let best: T[] = [];
  let run: T[] = [];
  for (const x of xs) {
    if (ok(x)) run.push(x);
    else run = [];
    if (run.length > best.length) best = [...run];
  }
  return best;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
