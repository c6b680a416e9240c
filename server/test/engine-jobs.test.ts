// The worker queue and media routes driven by a controllable test engine (the real engine is
// its own part): completion with real files, byte ranges, cancel while queued and rendering,
// engine failures, SSE events per user, catalog files, graceful shutdown.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '../../shared/contract/index.js';
import { createTestEngine, fixtureFiles } from './fixtures/test-engine.js';
import type { TestEngine } from './fixtures/test-engine.js';
import { call, errorCode, testServer, validRequest, waitFor } from './helpers.js';
import type { TestServer } from './helpers.js';
import { openEvents } from './sse-client.js';

let s: TestServer;
let engine: TestEngine;
let alice: string;
let bob: string;

beforeAll(async () => {
  engine = createTestEngine();
  s = await testServer({ engine, concurrency: 1, heartbeatMs: 200 });
  alice = await s.userKey('alice');
  bob = await s.userKey('bob');
});
afterAll(async () => {
  engine.release();
  await s.stop();
});

const create = async (key: string, text: string, extra: object = {}) => {
  const r = await call(`${s.url}/api/render`, { key, json: { ...validRequest, text, ...extra } });
  expect(r.status).toBe(202);
  return r.body as Job;
};
const settle = (key: string, id: string) =>
  waitFor(async () => {
    const j = (await call(`${s.url}/api/jobs/${id}`, { key })).body as Job;
    return ['completed', 'failed', 'canceled'].includes(j.status) ? j : null;
  });

describe('a render that completes', () => {
  let job: Job;
  let events: Job[];

  beforeAll(async () => {
    const stream = await openEvents(s.url, { authorization: `Bearer ${alice}` });
    const bobStream = await openEvents(s.url, { authorization: `Bearer ${bob}` });
    const created = await create(alice, 'A finished video [slow:300]', { params: { aspectRatio: '9:16' } });
    job = await settle(alice, created.id);
    await waitFor(async () => stream.jobs.some((j) => j.id === job.id && j.status === 'completed'));
    events = stream.jobs.filter((j) => j.id === job.id);
    expect(bobStream.jobs.filter((j) => j.id === job.id)).toEqual([]);
    stream.close();
    bobStream.close();
  });

  it('records output with real sizes and URLs under the base', async () => {
    expect(job.status).toBe('completed');
    expect(job.progress).toBe(1);
    expect(job.output).toEqual({
      videoUrl: `/api/jobs/${job.id}/video`,
      captionsUrl: `/api/jobs/${job.id}/captions.vtt`,
      thumbnailUrl: `/api/jobs/${job.id}/thumbnail.jpg`,
      durationSeconds: 1,
      width: 720,
      height: 1280,
      sizeBytes: readFileSync(fixtureFiles().video).length,
    });
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();
  });

  it('sent SSE job events in order with monotonic progress', () => {
    const statuses = events.map((e) => e.status);
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('rendering');
    expect(statuses[statuses.length - 1]).toBe('completed');
    const progress = events.map((e) => e.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.filter((p) => p > 0 && p < 1).length).toBeGreaterThan(0);
    for (const e of events) Job.parse(e);
  });

  it('serves the video whole, by byte range, with ETag and 416', async () => {
    const bytes = readFileSync(fixtureFiles().video);
    const whole = await fetch(`${s.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${alice}` } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const etag = whole.headers.get('etag')!;
    expect(etag).toBeTruthy();

    const part = await fetch(`${s.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${alice}`, range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);

    const suffix = await fetch(`${s.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${alice}`, range: 'bytes=-5' } });
    expect(suffix.status).toBe(206);
    expect(Buffer.from(await suffix.arrayBuffer()).equals(bytes.subarray(bytes.length - 5))).toBe(true);

    const open = await fetch(`${s.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${alice}`, range: `bytes=${bytes.length - 3}-` } });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(3);

    const out = await call(`${s.url}${job.output!.videoUrl}`, { key: alice, headers: { range: `bytes=${bytes.length}-` } });
    expect(out.status).toBe(416);
    expect(errorCode(out)).toBe('range_not_satisfiable');
    expect(out.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    const cached = await fetch(`${s.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${alice}`, 'if-none-match': etag } });
    expect(cached.status).toBe(304);

    const head = await fetch(`${s.url}${job.output!.videoUrl}`, { method: 'HEAD', headers: { authorization: `Bearer ${alice}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves captions and thumbnail', async () => {
    const vtt = await call(`${s.url}${job.output!.captionsUrl}`, { key: alice });
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toContain('text/vtt');
    expect(vtt.text.startsWith('WEBVTT')).toBe(true);
    const jpg = await fetch(`${s.url}${job.output!.thumbnailUrl}`, { headers: { authorization: `Bearer ${alice}` } });
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await jpg.arrayBuffer()).subarray(0, 2).toString('hex')).toBe('ffd8');
  });

  it('refuses to cancel it (409) and deletes it with its files', async () => {
    expect(errorCode(await call(`${s.url}/api/jobs/${job.id}/cancel`, { key: alice, method: 'POST' }))).toBe('invalid_transition');
    expect(existsSync(join(s.dataDir, 'media', job.id, 'video.mp4'))).toBe(true);
    expect((await call(`${s.url}/api/jobs/${job.id}`, { key: alice, method: 'DELETE' })).status).toBe(204);
    expect(existsSync(join(s.dataDir, 'media', job.id))).toBe(false);
    expect(errorCode(await call(`${s.url}/api/jobs/${job.id}/video`, { key: alice }))).toBe('not_found');
  });
});

describe('cancel', () => {
  it('cancels a rendering job (the engine is aborted, nothing published) and a queued one', async () => {
    const rendering = await create(alice, 'Hold me [hold]');
    await waitFor(async () => (await call(`${s.url}/api/jobs/${rendering.id}`, { key: alice })).body.status === 'rendering');
    const queued = await create(alice, 'Behind the held one');
    expect((await call(`${s.url}/api/jobs/${queued.id}`, { key: alice })).body.status).toBe('queued');
    expect(errorCode(await call(`${s.url}/api/jobs/${queued.id}`, { key: alice, method: 'DELETE' }))).toBe('invalid_transition');

    const q = await call(`${s.url}/api/jobs/${queued.id}/cancel`, { key: alice, method: 'POST' });
    expect(q.status).toBe(200);
    expect(q.body.status).toBe('canceled');
    const r = await call(`${s.url}/api/jobs/${rendering.id}/cancel`, { key: alice, method: 'POST' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('canceled');
    // The slot frees up: the next job renders.
    const next = await settle(alice, (await create(alice, 'After the cancel')).id);
    expect(next.status).toBe('completed');
    const after = (await call(`${s.url}/api/jobs/${rendering.id}`, { key: alice })).body as Job;
    expect(after.status).toBe('canceled');
    expect(after.output).toBeNull();
    expect(existsSync(join(s.dataDir, 'media', rendering.id))).toBe(false);
    expect(engine.started).not.toContain(queued.id);
  });
});

describe('failures', () => {
  it('records an engine error code, and hides an unexpected error behind internal_error', async () => {
    const failed = await settle(alice, (await create(alice, 'Please [fail]')).id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'speech_failed', message: 'the voice could not speak this text' });
    const crashed = await settle(alice, (await create(alice, 'Please [crash]')).id);
    expect(crashed.error?.code).toBe('internal_error');
    expect(crashed.error?.message).not.toContain('/secret/path');
  });
});

describe('events', () => {
  it('streams text/event-stream with heartbeats, for a service key acting for a user', async () => {
    const service = await s.serviceKey();
    const none = await openEvents(s.url, { authorization: `Bearer ${service}` });
    expect(none.status).toBe(400);
    const stream = await openEvents(s.url, { authorization: `Bearer ${service}`, 'x-user-id': 'bob' });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain('text/event-stream');
    const job = await create(bob, 'For bob');
    await waitFor(async () => stream.comments.includes('heartbeat') && stream.jobs.some((j) => j.id === job.id));
    stream.close();
    expect((await openEvents(s.url, {})).status).toBe(401);
  });
});

describe('catalog files from the engine', () => {
  it('serves template thumbnails and voice samples by either id form (the engine keeps them on disk: engine.test.ts)', async () => {
    const thumb = await fetch(`${s.url}/api/templates/social-short/thumbnail.jpg`, { headers: { authorization: `Bearer ${alice}` } });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    const bad = await call(`${s.url}/api/templates/social-short/thumbnail.jpg?aspectRatio=16:9`, { key: alice });
    expect(errorCode(bad)).toBe('validation_failed');
    for (const id of ['103', 'en-GB-Sonia']) {
      const wav = await fetch(`${s.url}/api/voices/${id}/sample`, { headers: { authorization: `Bearer ${alice}` } });
      expect(wav.status).toBe(200);
      expect(wav.headers.get('content-type')).toBe('audio/wav');
      expect(Buffer.from(await wav.arrayBuffer()).subarray(0, 4).toString()).toBe('RIFF');
    }
  });
});

describe('graceful shutdown', () => {
  // Reads the embedded store's file after the server is gone.
  it.skipIf(process.env.TEST_STORE === 'postgres')('lets a short render finish, and puts a long one back in the queue', async () => {
    const e = createTestEngine();
    const t = await testServer({ engine: e, concurrency: 2, shutdownGraceMs: 600 });
    const k = await t.userKey('u');
    const short = (await call(`${t.url}/api/render`, { key: k, json: { ...validRequest, text: 'short [slow:300]' } })).body as Job;
    const long = (await call(`${t.url}/api/render`, { key: k, json: { ...validRequest, text: 'long [hold]' } })).body as Job;
    await waitFor(async () => (await t.store.get(long.id, 'u'))?.status === 'rendering');
    await t.close();
    const { SqliteJobStore } = await import('../jobs/sqlite-store.js');
    const store = SqliteJobStore.open(join(t.dataDir, 'studio.db'));
    expect((await store.get(short.id, 'u'))?.status).toBe('completed');
    const requeued = await store.get(long.id, 'u');
    expect(requeued?.status).toBe('queued');
    expect(requeued?.attempts).toBe(0);
    await store.close();
    await t.stop();
  });
});
