// Offline: with the render API stopped, two submits wait in the outbox with their
// Idempotency-Keys; when the API is back each is sent and makes exactly one job. The job list
// and the catalogs stay viewable from the disk cache meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/contract/index.js';
import type { OutboxItem, StudioEvent } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import type { Studio } from '../services/studio.js';
import { createKey, freePort, remoteOnlyStudio, startApi, tempDir, waitFor, type RunningApi } from './helpers.js';

const apiData = tempDir('ps-api-');
const dataDir = tempDir();
let api: RunningApi;
let port: number;
let studio: Studio;
const events: StudioEvent[] = [];

async function ok<T>(method: string, input?: unknown): Promise<T> {
  const r = await dispatch(studio.handlers, method, input);
  if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

beforeAll(async () => {
  const key = createKey(apiData, { user: 'alice' });
  port = await freePort();
  api = await startApi(apiData, port);
  studio = await remoteOnlyStudio(dataDir, { timeoutMs: 3000, retries: 1, backoffMs: 50 });
  studio.events.subscribe((e) => events.push(e));
  const p = await ok<{ id: string }>('profiles.save', { name: 'Team API', baseUrl: `http://127.0.0.1:${port}`, keyHeader: 'x-api-key', key });
  await ok('profiles.select', { id: p.id });
});

afterAll(async () => {
  await studio?.close();
  await api?.stop();
});

const request = (text: string) => ({ request: { text, templateId: 'newsroom', voiceId: 'en-US-Ava' } });

describe('outbox', () => {
  it('keeps submits made while the API is down and sends each exactly once when it is back', async () => {
    const first = await ok<{ job: Job | null }>('jobs.submit', request('Sent while online.'));
    expect(first.job?.status).toBe('queued');
    await ok('jobs.list', {}); // fills the offline cache
    await ok('catalogs.get');

    await api.stop();
    const a = await ok<{ job: Job | null; queued: OutboxItem | null }>('jobs.submit', request('Offline submit one.'));
    const b = await ok<{ job: Job | null; queued: OutboxItem | null }>('jobs.submit', request('Offline submit two.'));
    expect(a.job).toBeNull();
    expect(b.job).toBeNull();
    expect(a.queued?.id).not.toBe(b.queued?.id);
    expect((await ok<OutboxItem[]>('outbox.list')).map((i) => i.request.text)).toEqual(['Offline submit one.', 'Offline submit two.']);
    expect(events.some((e) => e.type === 'outbox' && e.items.length === 2)).toBe(true);

    // Offline viewing: the last list and catalogs come from disk.
    const cached = await ok<{ jobs: Job[]; fromCache: boolean }>('jobs.list', {});
    expect(cached.fromCache).toBe(true);
    expect(cached.jobs.map((j) => j.text)).toEqual(['Sent while online.']);
    expect((await ok<{ fromCache: boolean; templates: unknown[] }>('catalogs.get')).fromCache).toBe(true);

    api = await startApi(apiData, port);
    studio.setLive(true); // the job sync sees the API again and flushes the outbox
    await waitFor(async () => (await ok<OutboxItem[]>('outbox.list')).length === 0, 'the outbox to drain', 60_000);
    // Further flush triggers must not send anything again.
    studio.setLive(false);
    studio.setLive(true);
    await new Promise((r) => setTimeout(r, 1500));

    const list = await ok<{ jobs: Job[]; fromCache: boolean }>('jobs.list', { limit: 100 });
    expect(list.fromCache).toBe(false);
    expect(list.jobs.map((j) => j.text).sort()).toEqual(['Offline submit one.', 'Offline submit two.', 'Sent while online.']);
    expect(events.some((e) => e.type === 'job' && e.job.text === 'Offline submit two.')).toBe(true);
  });

  it('sends a waiting item with its Idempotency-Key, so a resend replays the same job', async () => {
    await api.stop();
    const q = await ok<{ queued: OutboxItem }>('jobs.submit', request('Resent twice.'));
    api = await startApi(apiData, port);
    const key = createKey(apiData, { user: 'alice' });
    // Send it by hand first (as if an earlier flush reached the API but its answer was lost)…
    const res = await fetch(`http://127.0.0.1:${port}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': q.queued.id },
      body: JSON.stringify(q.queued.request),
    });
    // 202, or 200 (a replay) when the outbox, flushing as the API came back, got there first.
    expect([200, 202]).toContain(res.status);
    // …then let the outbox send it: the API answers with the same job instead of a second one.
    await waitFor(async () => (await ok<OutboxItem[]>('outbox.list')).length === 0, 'the outbox to drain', 60_000);
    const list = await ok<{ jobs: Job[] }>('jobs.list', { q: 'Resent twice', limit: 100 });
    expect(list.jobs).toHaveLength(1);
  });
});
