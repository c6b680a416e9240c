// A local studio that stops answering without exiting (kill -STOP, a deadlock): the watchdog
// says so, kills it for real (a stopped process never handles SIGTERM) and starts a new one;
// meanwhile every bridge call ends by its deadline, the job history comes from the cache and
// the live event stream is dropped when its heartbeat stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { StudioEvent, StudioStatus } from '../../shared/bridge/index.js';
import type { Job } from '../../shared/contract/index.js';
import { dispatch } from '../services/dispatch.js';
import { LocalStudio } from '../services/local-studio.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createStudio, type Studio } from '../services/studio.js';
import { ROOT, serverCommandForTests, tempDir, testLogger, waitFor } from './helpers.js';

const dataDir = tempDir();
const logs: string[] = [];
const statuses: StudioStatus[] = [];
const events: StudioEvent[] = [];
let local: LocalStudio;
let studio: Studio;

async function ok<T>(method: string, input?: unknown): Promise<T> {
  const r = await dispatch(studio.handlers, method, input);
  if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  const secrets = new MemorySecretStore();
  local = new LocalStudio({ command: serverCommandForTests(), dataDir: join(dataDir, 'studio'), secrets, userId: 'desktop', log: (l) => logs.push(l), healthIntervalMs: 300, killGraceMs: 6000 });
  local.onStatusChange((s) => statuses.push(s));
  studio = createStudio({
    shell: 'electron',
    version: '0.1.0',
    dataDir,
    resourcesDir: join(ROOT, 'resources'),
    profiles: new ProfileStore({ dataDir, secrets, env: null, editable: true, local: true }),
    env: null,
    localStudio: local,
    userId: 'desktop',
    mediaBase: 'studio-media://app',
    log: testLogger(logs),
    clientOptions: { timeoutMs: 1500, deadlineMs: 3000 },
    eventsIdleMs: 1500,
  });
  studio.events.subscribe((e) => events.push(e));
  await local.start();
  studio.setLive(true);
}, 60_000);

afterAll(async () => {
  await studio?.close();
  await local?.stop();
});

describe('a hung local studio', () => {
  it('is reported as not responding, killed and replaced; calls end by their deadline and the history stays', async () => {
    const { job } = await ok<{ job: Job }>('jobs.submit', { request: { text: 'Hello from a studio about to hang.', templateId: 'newsroom', voiceId: 'en-US-Ava' } });
    await ok('jobs.cancel', { id: job.id });
    expect((await ok<{ jobs: Job[] }>('jobs.list', {})).jobs.map((j) => j.id)).toContain(job.id);
    await waitFor(() => events.some((e) => e.type === 'connection' && e.online), 'the job sync to be online', 20_000);

    const pid = local.pid!;
    process.kill(pid, 'SIGSTOP');
    const hung = await waitFor(() => statuses.find((s) => s.state === 'restarting'), 'the watchdog to notice', 20_000);
    expect(hung.error).toBe('Local studio not responding — restarting');
    expect(hung.baseUrl).toBeNull();
    // The live stream of the stopped studio is dropped by its silence, not waited on forever.
    await waitFor(() => events.some((e) => e.type === 'connection' && !e.online), 'the job sync to see the studio gone', 20_000);
    // The job history answers from the cache while the studio is away (it is killed only after
    // its SIGTERM's grace, long enough to look).
    const list = await ok<{ jobs: Job[]; fromCache: boolean }>('jobs.list', {});
    expect(list.fromCache).toBe(true);
    expect(list.jobs.map((j) => j.id)).toContain(job.id);

    await waitFor(() => !alive(pid), 'the stopped studio to be killed', 20_000);
    await waitFor(() => local.status().state === 'running' && local.pid !== pid, 'a new studio', 60_000);
    expect((await ok<{ fromCache: boolean }>('jobs.list', {})).fromCache).toBe(false);
  }, 120_000);

  it('a call to a studio that hangs ends with a clear message within its deadline', async () => {
    const pid = local.pid!;
    await ok('jobs.list', {});
    process.kill(pid, 'SIGSTOP');
    try {
      const r = await dispatch(studio.handlers, 'jobs.get', { id: 'job_missing' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(/did not answer in time|not responding/);
    } finally {
      await waitFor(() => local.status().state === 'running' && local.pid !== pid, 'a new studio', 60_000);
    }
  }, 120_000);
});
