// A render API that is not ours: recorded answer shapes served over a real socket, read by the
// client through the normaliser; an unreadable answer is a clear error naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RenderApiClient } from '../services/api-client.js';
import { BridgeFailure } from '../services/errors.js';

// Answers recorded from foreign render APIs (shapes, not their data).
const RECORDED: Record<string, { status?: number; body: unknown; header?: string }> = {
  '/bare/api/jobs': {
    body: [
      { _id: 'a1', status: 'SUCCEEDED', script: 'Hello there', template_id: 'newsroom', voice_id: 101, created_at: 1795000000, video_url: '/files/a1.mp4', progress: 100 },
      { _id: 'a2', status: 'In Progress', script: 'Second', created_at: '2026-11-20T10:00:00Z', progress: 42 },
    ],
  },
  '/data/api/jobs': { body: { data: [{ jobId: 'b1', state: 'pending', text: 'Queued one' }, { jobId: 'b2', state: 'CANCELLED', text: 'Gone' }], next: 'page2' } },
  '/items/api/jobs': { body: { items: [{ id: 7, status: 'error', error: 'voice not found', text: 'Broken' }] } },
  '/typo/api/jobs': { body: { data: [{ jobId: 'c1', status: 'done' }, { jobId: 'c2', status: 'exploded' }] } },
  '/noid/api/jobs': { body: { jobs: [{ status: 'queued', text: 'x' }] } },
  '/html/api/jobs': { body: '<html>gateway</html>' },
  '/obj/api/jobs': { body: { results_count: 3 } },
  '/xkey/api/jobs': { body: [], header: 'x-api-key' },
  '/down/api/jobs': { status: 503, body: { message: 'maintenance' } },
  '/params/api/jobs': {
    body: [
      { id: 'p1', status: 'done', template: 'social-short', params: { aspect: '4:5', avatar: { x: 0.3 } } },
      { id: 'p2', status: 'done', template: 'newsroom' },
      { id: 'p3', status: 'done', template: 'their-own', params: { aspect_ratio: '21:9' } },
    ],
  },
  '/wrapped/api/render': { body: { job: { job_id: 'w1', status: 'Queued', text: 'hi' } } },
};

let server: Server;
let base = '';
const seen: Record<string, string | undefined>[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url, authorization: req.headers.authorization, 'x-api-key': req.headers['x-api-key'] as string | undefined });
    const rec = RECORDED[(req.url ?? '').split('?')[0]!];
    if (!rec) {
      res.writeHead(404).end();
      return;
    }
    const body = typeof rec.body === 'string' ? rec.body : JSON.stringify(rec.body);
    res.writeHead(rec.status ?? 200, { 'content-type': typeof rec.body === 'string' ? 'text/html' : 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (prefix: string, keyHeader: 'bearer' | 'x-api-key' = 'bearer') =>
  new RenderApiClient({ baseUrl: base + prefix, keyHeader, key: async () => 'foreign-key' }, { retries: 1, backoffMs: 10, timeoutMs: 2000 });

async function failure(p: Promise<unknown>): Promise<BridgeFailure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof BridgeFailure) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('normalising foreign job lists', () => {
  it('reads a bare array with _id, status words in other cases and snake_case fields', async () => {
    const list = await client('/bare').listJobs();
    expect(list.jobs.map((j) => [j.id, j.status, j.progress])).toEqual([
      ['a1', 'completed', 1],
      ['a2', 'rendering', 0.42],
    ]);
    expect(list.jobs[0]).toMatchObject({ text: 'Hello there', templateId: 'newsroom', voiceId: '101', createdAt: new Date(1795000000 * 1000).toISOString() });
    expect(list.jobs[0]!.output?.videoUrl).toBe('/files/a1.mp4');
    expect(list.counts).toEqual({ queued: 0, rendering: 1, completed: 1, failed: 0, canceled: 0 });
  });

  it("fills a job's missing or unreadable parameters from its template's catalog defaults", async () => {
    const list = await client('/params').listJobs();
    expect(list.jobs.map((j) => j.params)).toEqual([
      { aspectRatio: '4:5', avatar: { scale: 0.55, x: 0.3, y: 0.45 } },
      { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.72, y: 0.58 } },
      { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.5, y: 0.58 } },
    ]);
  });

  it('reads { data: [...] } with jobId and a next cursor, and { items: [...] } with numeric ids', async () => {
    const d = await client('/data').listJobs();
    expect(d.jobs.map((j) => [j.id, j.status])).toEqual([
      ['b1', 'queued'],
      ['b2', 'canceled'],
    ]);
    expect(d.nextCursor).toBe('page2');
    const i = await client('/items').listJobs();
    expect(i.jobs[0]).toMatchObject({ id: '7', status: 'failed', error: { code: 'failed', message: 'voice not found' } });
  });

  it('unwraps a created job answered as { job: {...} }', async () => {
    const job = await client('/wrapped').submit({ text: 'hi', templateId: 'newsroom', voiceId: '101' }, 'k1');
    expect(job).toMatchObject({ id: 'w1', status: 'queued' });
  });

  it('sends the key in the header the profile chose', async () => {
    await client('/xkey', 'x-api-key').listJobs();
    expect(seen.at(-1)).toMatchObject({ 'x-api-key': 'foreign-key', authorization: undefined });
    await client('/bare').listJobs();
    expect(seen.at(-1)).toMatchObject({ authorization: 'Bearer foreign-key', 'x-api-key': undefined });
  });

  it('names the field of an unknown status word', async () => {
    const e = await failure(client('/typo').listJobs());
    expect(e.code).toBe('unreadable_response');
    expect(e.message).toContain('data[1].status');
    expect(e.message).toContain('"exploded"');
  });

  it('names a missing id, a body that is not JSON, and an object without a job array', async () => {
    expect((await failure(client('/noid').listJobs())).message).toContain('jobs[0].id: is missing');
    const html = await failure(client('/html').listJobs());
    expect(html.code).toBe('unreadable_response');
    expect(html.message).toContain('not JSON');
    const obj = await failure(client('/obj').listJobs());
    expect(obj.message).toContain('expected an array of jobs or an object with a jobs, data or items array');
  });

  it('reports an unavailable API as offline after retrying, and a missing route as not found', async () => {
    const before = seen.length;
    const down = await failure(client('/down').listJobs());
    expect(down.code).toBe('offline');
    expect(seen.length - before).toBe(2); // one retry for a safe call
    expect((await failure(client('/none').cancel('x'))).code).toBe('not_found');
  });

  it('says offline when nothing listens', async () => {
    const c = new RenderApiClient({ baseUrl: 'http://127.0.0.1:9', keyHeader: 'bearer', key: async () => 'k' }, { retries: 0 });
    expect((await failure(c.listJobs())).code).toBe('offline');
  });
});
