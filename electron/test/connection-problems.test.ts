// Issue 12, points 3 and 4, through the real render API (server/ CLI) and the real services:
// outbox items the API refused can be sent again (by hand, or by themselves when the
// connection's settings change), busy answers are retried no sooner than Retry-After, a removed
// item stays removed; and the connection state says why the API cannot be used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import type { Job } from '../../shared/contract/index.js';
import type { OutboxItem, StudioEvent } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import type { Studio } from '../services/studio.js';
import { createKey, freePort, remoteOnlyStudio, startApi, tempDir, waitFor, type RunningApi } from './helpers.js';

const apiData = tempDir('ps-api-');
let api: RunningApi | null = null;
let port: number;
let goodKey: string;
const studios: Studio[] = [];

async function newStudio(events: StudioEvent[] = []): Promise<Studio> {
  const studio = await remoteOnlyStudio(tempDir(), { timeoutMs: 1500, retries: 0, backoffMs: 50 });
  studio.events.subscribe((e) => events.push(e));
  studios.push(studio);
  return studio;
}

async function ok<T>(studio: Studio, method: string, input?: unknown): Promise<T> {
  const r = await dispatch(studio.handlers, method, input);
  if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

async function profile(studio: Studio, key: string, url = `http://127.0.0.1:${port}`): Promise<string> {
  const p = await ok<{ id: string }>(studio, 'profiles.save', { name: 'Team API', baseUrl: url, keyHeader: 'bearer', key });
  await ok(studio, 'profiles.select', { id: p.id });
  return p.id;
}

const request = (text: string) => ({ request: { text, templateId: 'newsroom', voiceId: 'en-US-Ava' } });
const outbox = (studio: Studio) => ok<OutboxItem[]>(studio, 'outbox.list');
const jobTexts = async (key: string) => {
  const r = await fetch(`http://127.0.0.1:${port}/api/jobs?limit=100`, { headers: { authorization: `Bearer ${key}` } });
  return ((await r.json()) as { jobs: Job[] }).jobs.map((j) => j.text);
};

beforeAll(async () => {
  goodKey = createKey(apiData, { user: 'alice' });
  port = await freePort();
});
afterAll(async () => {
  for (const s of studios) await s.close();
  await api?.stop();
});

describe('point 3: outbox items refused by the server', () => {
  it('are sent again by themselves once the key is fixed in Settings', async () => {
    await api?.stop();
    const studio = await newStudio();
    const id = await profile(studio, 'psk_wrong_key');
    // Waits in the outbox while the API is down…
    const r = await ok<{ queued: OutboxItem | null }>(studio, 'jobs.submit', request('Refused, then sent after the key is fixed.'));
    expect(r.queued).not.toBeNull();
    // …and is refused once it is back: the key is wrong.
    api = await startApi(apiData, port);
    studio.setLive(true);
    const refused = await waitFor(async () => (await outbox(studio)).find((i) => i.lastError?.code === 'unauthorized'), 'the refusal');
    expect(refused.request.text).toBe('Refused, then sent after the key is fixed.');
    await ok(studio, 'key.set', { profileId: id, key: goodKey });
    await waitFor(async () => (await outbox(studio)).length === 0, 'the outbox to drain');
    expect(await jobTexts(goodKey)).toContain('Refused, then sent after the key is fixed.');
    studio.setLive(false);
  });

  it('"Send again" sends a refused item once its cause is fixed on the server', async () => {
    await api?.stop();
    const studio = await newStudio();
    await profile(studio, goodKey);
    await ok(studio, 'jobs.submit', request('Sent again by hand.'));
    // The API comes back from another data folder, where this key is unknown: refused…
    api = await startApi(tempDir('ps-api-other-'), port);
    await ok(studio, 'outbox.resend', { id: (await outbox(studio))[0]!.id });
    await waitFor(async () => (await outbox(studio))[0]?.lastError?.code === 'unauthorized', 'the refusal');
    // …then the server is fixed; nothing sends it by itself, "Send again" does.
    await api.stop();
    api = await startApi(apiData, port);
    await new Promise((r) => setTimeout(r, 500));
    expect(await outbox(studio)).toHaveLength(1);
    await ok(studio, 'outbox.resend', { id: (await outbox(studio))[0]!.id });
    await waitFor(async () => (await outbox(studio)).length === 0, 'the outbox to drain');
    expect(await jobTexts(goodKey)).toContain('Sent again by hand.');
  });

  it('keeps retrying a 429, no sooner than its Retry-After', async () => {
    await api?.stop();
    const key = createKey(apiData, { user: 'busy' });
    const studio = await newStudio();
    await profile(studio, key);
    await ok(studio, 'jobs.submit', request('Waits for the rate limit.'));
    api = await startApi(apiData, port, ['--creates-per-minute', '1']);
    // Someone else of this user takes the one create of this minute.
    const taken = await fetch(`http://127.0.0.1:${port}/api/render`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(request('Took the slot.').request),
    });
    expect(taken.status).toBe(202);
    const t0 = Date.now();
    await ok(studio, 'outbox.resend', { id: (await outbox(studio))[0]!.id });
    const limited = await waitFor(async () => (await outbox(studio)).find((i) => i.lastError?.code === 'rate_limited'), 'the 429');
    expect(limited.lastError?.retryAfterSeconds).toBeGreaterThan(0);
    // A flush before Retry-After (the connection coming back) does not send it early.
    studio.setLive(true);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await outbox(studio))[0]?.attempts).toBe(limited.attempts);
    await waitFor(async () => (await outbox(studio)).length === 0, 'the item to be sent after Retry-After', 90_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual((limited.lastError!.retryAfterSeconds! - 1) * 1000);
    expect(await jobTexts(key)).toContain('Waits for the rate limit.');
    studio.setLive(false);
  }, 120_000);

  it('an item removed while it is being sent does not come back when the send fails', async () => {
    // An API that accepts connections and never answers: every send times out.
    const sockets: Socket[] = [];
    let posts = 0;
    const stalled: Server = createServer((s) => {
      sockets.push(s);
      s.on('data', (d) => (posts += d.toString('latin1').split('POST /api/render').length - 1));
    });
    const stalledPort = await new Promise<number>((r) => stalled.listen(0, '127.0.0.1', () => r((stalled.address() as { port: number }).port)));
    try {
      const studio = await newStudio();
      await profile(studio, goodKey, `http://127.0.0.1:${stalledPort}`);
      const r = await ok<{ queued: OutboxItem }>(studio, 'jobs.submit', request('Removed while sending.'));
      const before = posts;
      await waitFor(() => posts > before, 'the outbox to send it again'); // the retry is in flight
      await ok(studio, 'outbox.remove', { id: r.queued.id });
      await new Promise((res) => setTimeout(res, 2500)); // the send times out meanwhile
      expect(await outbox(studio)).toEqual([]);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => stalled.close(() => r(undefined)));
    }
  });
});

describe('point 4: the connection state says why the API cannot be used', () => {
  it('reports a refused key as such, not as offline, and offline when it is down', async () => {
    if (!api) api = await startApi(apiData, port);
    const events: StudioEvent[] = [];
    const studio = await newStudio(events);
    const id = await profile(studio, 'psk_wrong_key');
    studio.setLive(true);
    const refused = await waitFor(() => events.find((e) => e.type === 'connection' && !e.online), 'a connection event');
    expect(refused).toMatchObject({ online: false, problem: { code: 'unauthorized' } });
    await ok(studio, 'key.set', { profileId: id, key: goodKey });
    await waitFor(() => events.find((e) => e.type === 'connection' && e.online), 'online with the right key');
    await api.stop();
    api = null;
    const down = await waitFor(() => events.slice(events.findIndex((e) => e.type === 'connection' && e.online)).find((e) => e.type === 'connection' && !e.online), 'offline', 60_000);
    expect(down).toMatchObject({ problem: { code: 'offline' } });
    studio.setLive(false);
  }, 90_000);
});
