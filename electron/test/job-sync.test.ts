// Job sync without SSE: polling a render API that has no event stream, with bursts coalesced,
// going offline and coming back (which marks the list stale and flushes the outbox).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StudioEvent } from '../../shared/bridge/index.js';
import { RenderApiClient } from '../services/api-client.js';
import { JobSync } from '../services/job-sync.js';
import { waitFor } from './helpers.js';

let server: Server | null = null;
let sync: JobSync | null = null;
afterEach(async () => {
  sync?.stop();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

function foreignApi(port = 0): Promise<{ port: number; state: { status: string; progress: number; up: boolean } }> {
  const state = { status: 'pending', progress: 0, up: true };
  server = createServer((req, res) => {
    if (!state.up) {
      res.writeHead(503).end();
      return;
    }
    // A foreign API: bare array, _id, its own status words; no /api/events.
    if (req.url?.startsWith('/api/jobs')) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ _id: 'f1', status: state.status, progress: state.progress, text: 'x', updated_at: Date.now() }]));
    else res.writeHead(404).end();
  });
  return new Promise((r) => server!.listen(port, '127.0.0.1', () => r({ port: (server!.address() as AddressInfo).port, state })));
}

describe('job sync by polling', () => {
  it('reports changes, goes offline and back, and flushes when the API answers again', async () => {
    const { port, state } = await foreignApi();
    const events: StudioEvent[] = [];
    let onlineCalls = 0;
    const client = new RenderApiClient({ baseUrl: `http://127.0.0.1:${port}`, keyHeader: 'bearer', key: async () => 'k' }, { retries: 0, timeoutMs: 1000 });
    sync = new JobSync({
      profileId: 'p',
      client: async () => client,
      hasEvents: async () => false,
      emit: (e) => events.push(e),
      present: (j) => j,
      onOnline: () => onlineCalls++,
      minPollMs: 50,
      maxPollMs: 200,
      coalesceMs: 20,
    });
    sync.start();
    await waitFor(() => events.some((e) => e.type === 'connection' && e.online), 'online');
    expect(events.filter((e) => e.type === 'job')).toEqual([]); // the first look only learns the list
    state.status = 'RUNNING';
    state.progress = 50;
    const running = await waitFor(() => events.find((e) => e.type === 'job' && e.job.status === 'rendering'), 'a rendering event');
    expect(running).toMatchObject({ job: { id: 'f1', progress: 0.5 } });
    state.up = false;
    await waitFor(() => events.some((e) => e.type === 'connection' && !e.online), 'offline');
    state.up = true;
    state.status = 'done';
    await waitFor(() => events.some((e) => e.type === 'jobs-stale'), 'stale after reconnect');
    expect(onlineCalls).toBe(1);
    await waitFor(() => events.find((e) => e.type === 'job' && e.job.status === 'completed'), 'a completed event');
  });

  it('coalesces a burst of updates to one event per job', async () => {
    const events: StudioEvent[] = [];
    sync = new JobSync({ profileId: 'p', client: async () => { throw new Error('unused'); }, hasEvents: async () => false, emit: (e) => events.push(e), present: (j) => j, onOnline: () => undefined, coalesceMs: 30 });
    const base = { text: 't', templateId: 'newsroom', voiceId: 'en-US-Ava', params: { aspectRatio: '16:9' as const, avatar: { scale: 0.6, x: 0.5, y: 0.5 } }, createdAt: '', startedAt: null, finishedAt: null, output: null, error: null, warnings: [] };
    for (let i = 1; i <= 100; i++) {
      sync.push({ ...base, id: 'a', status: 'rendering', progress: i / 100, updatedAt: String(i) });
      if (i % 10 === 0) sync.push({ ...base, id: 'b', status: 'rendering', progress: i / 100, updatedAt: String(i) });
    }
    await new Promise((r) => setTimeout(r, 80));
    const jobs = events.filter((e): e is Extract<StudioEvent, { type: 'job' }> => e.type === 'job');
    expect(jobs.map((e) => [e.job.id, e.job.progress])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });
});
