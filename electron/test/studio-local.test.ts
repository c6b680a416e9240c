// The desktop's privileged side against the real local studio: the launcher starts server/ with
// a service key it created and stored, the bridge handlers drive it, and the key never shows up
// in any bridge answer, event, log line or file. The studio is restarted when it dies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { isTerminal, type Job } from '../../shared/contract/index.js';
import type { StudioEvent } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import { LocalStudio } from '../services/local-studio.js';
import { ProfileStore } from '../services/profiles.js';
import { createSecretStore, type SecretStore } from '../services/secrets.js';
import { createStudio, type Studio } from '../services/studio.js';
import { ROOT, filesUnder, serverCommandForTests, tempDir, waitFor } from './helpers.js';

const dataDir = tempDir();
const downloads = tempDir('ps-downloads-');
const logs: string[] = [];
const answers: string[] = [];
const events: StudioEvent[] = [];
let secrets: SecretStore;
let local: LocalStudio;
let studio: Studio;

async function call(method: string, input?: unknown) {
  const r = await dispatch(studio.handlers, method, input);
  answers.push(JSON.stringify(r));
  return r;
}
async function ok<T = unknown>(method: string, input?: unknown): Promise<T> {
  const r = await call(method, input);
  if (!r.ok) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

beforeAll(async () => {
  secrets = await createSecretStore({ dataDir, service: `Presenter Studio test ${process.pid}` });
  local = new LocalStudio({ command: serverCommandForTests(), dataDir: join(dataDir, 'studio'), secrets, userId: 'desktop', log: (l) => logs.push(l), healthIntervalMs: 500 });
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
    chooseSavePath: async (name) => join(downloads, name),
  });
  studio.events.subscribe((e) => {
    events.push(e);
    answers.push(JSON.stringify(e));
  });
  studio.setLive(true);
  await local.start();
});

afterAll(async () => {
  await studio?.close();
  await local?.stop();
  await secrets?.delete('local');
});

describe('the local studio through the bridge', () => {
  it('starts the server with a key it created and keeps in the keychain', async () => {
    const status = await ok<{ state: string; baseUrl: string }>('studio.status');
    expect(status.state).toBe('running');
    expect(status.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = await ok<{ set: boolean; storage: string }>('key.status', { profileId: 'local' });
    expect(key.set).toBe(true);
    expect(['keychain', 'memory']).toContain(key.storage);
    expect((await ok<{ profiles: { id: string }[]; activeId: string }>('profiles.list')).activeId).toBe('local');
  });

  it('serves catalogs with app-local media URLs and caches them for offline drafting', async () => {
    const c = await ok<{ templates: { id: string; thumbnailUrl: string }[]; voices: { sampleUrl: string }[]; fromCache: boolean }>('catalogs.get');
    expect(c.fromCache).toBe(false);
    expect(c.templates.map((t) => t.id)).toContain('newsroom');
    for (const t of c.templates) expect(t.thumbnailUrl).toMatch(/^studio-media:\/\/app\/local\/templates\//);
    for (const v of c.voices) expect(v.sampleUrl).toMatch(/^studio-media:\/\/app\/local\/voices\/[^/]+\/sample$/);
    expect(existsSync(join(dataDir, 'cache/catalogs/local.json'))).toBe(true);
  });

  it('refuses bad input with the field named, never running the handler', async () => {
    const typo = await call('jobs.submit', { request: { text: 'Hi', templateID: 'newsroom', voiceId: 'en-US-Ava' } });
    expect(typo).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.stringify(typo)).toContain('request.templateID');
    expect(await call('jobs.nope', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('jobs.get', 'job_1')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('__proto__', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const unknownTemplate = await call('jobs.submit', { request: { text: 'Hi there', templateId: 'no-such-template', voiceId: 'en-US-Ava' } });
    expect(unknownTemplate).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await call('jobs.get', { id: 'job_01JD3W6Y5N8Q2R7T4V9X0Z1ABC' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('submits a job and follows it live to a terminal state; a completed one plays through the media proxy', async () => {
    const r = await ok<{ job: Job; queued: null }>('jobs.submit', { request: { text: 'Welcome to the quarterly update.', templateId: 'newsroom', voiceId: '101', params: { aspectRatio: '1:1' } } });
    expect(r.queued).toBeNull();
    expect(r.job.params.aspectRatio).toBe('1:1');
    const last = await waitFor(() => {
      const seen = events.filter((e): e is Extract<StudioEvent, { type: 'job' }> => e.type === 'job' && e.job.id === r.job.id).at(-1);
      return seen && isTerminal(seen.job.status) ? seen.job : null;
    }, 'a terminal job event', 120_000);
    const list = await ok<{ jobs: Job[]; fromCache: boolean }>('jobs.list', {});
    expect(list.fromCache).toBe(false);
    expect(list.jobs.find((j) => j.id === r.job.id)?.status).toBe(last.status);
    if (last.status === 'completed') {
      // Activates once the real engine renders: the renderer only ever sees app-local URLs.
      expect(last.output!.videoUrl).toBe(`studio-media://app/local/jobs/${r.job.id}/video`);
      const res = await studio.openMedia(`local/jobs/${r.job.id}/video`, { range: 'bytes=0-99' });
      expect(res.status).toBe(206);
      expect((await res.arrayBuffer()).byteLength).toBe(100);
      const d = await ok<{ downloadId: string; path: string }>('download.start', { jobId: r.job.id, kind: 'video' });
      await waitFor(() => events.some((e) => e.type === 'download' && e.downloadId === d.downloadId && e.done), 'the download');
      expect(readFileSync(d.path).subarray(4, 8).toString()).toBe('ftyp');
      // Named from the job (no title here: the script's first words) and its date.
      expect(d.path).toBe(join(downloads, `Welcome to the quarterly update – ${r.job.createdAt.slice(0, 10)}.mp4`));
    } else {
      expect(['failed', 'canceled']).toContain(last.status);
      const res = await studio.openMedia(`local/jobs/${r.job.id}/video`, {});
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: expect.stringMatching(/not_ready|not_found/) });
    }
  });

  it('retries and duplicates a job', async () => {
    const { jobs } = await ok<{ jobs: Job[] }>('jobs.list', { limit: 1 });
    const retried = await ok<{ job: Job }>('jobs.retry', { id: jobs[0]!.id });
    expect(retried.job.id).not.toBe(jobs[0]!.id);
    expect(retried.job.text).toBe(jobs[0]!.text);
    const draft = await ok<{ id: string; text: string }>('jobs.duplicate', { id: jobs[0]!.id });
    expect((await ok<{ text: string }>('drafts.get', { id: draft.id })).text).toBe(jobs[0]!.text);
  });

  it('restarts the studio when it dies', async () => {
    const pid = local.pid!;
    process.kill(pid, 'SIGKILL');
    const st = await waitFor(async () => {
      const s = await ok<{ state: string; restarts: number }>('studio.status');
      return s.state === 'running' && s.restarts >= 1 && local.pid !== pid ? s : null;
    }, 'the studio to come back', 60_000);
    expect(st.restarts).toBeGreaterThanOrEqual(1);
    expect((await ok<{ jobs: Job[] }>('jobs.list', {})).jobs.length).toBeGreaterThanOrEqual(2);
  });

  it('never lets the key out: not in answers, events, log lines or files', async () => {
    const key = await secrets.get('local');
    expect(key).toBeTruthy();
    const leaks = [
      ...answers.filter((a) => a.includes(key!)).map(() => 'a bridge answer or event'),
      ...logs.filter((l) => l.includes(key!)).map(() => 'a log line'),
      ...filesUnder(dataDir).filter((f) => f.content.includes(key!)).map((f) => f.path),
      ...filesUnder(downloads).filter((f) => f.content.includes(key!)).map((f) => f.path),
    ];
    expect(leaks).toEqual([]);
    expect(answers.length).toBeGreaterThan(10);
  });
});

describe('a studio left behind by a crashed app', () => {
  it('is stopped when the app starts its studio again', async () => {
    const { spawn } = await import('node:child_process');
    const dir = tempDir('ps-orphan-');
    const host = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'electron/test/fixtures/studio-host.ts'), dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => host.stdout.on('data', (d: Buffer) => /running \d+/.test(d.toString()) && resolve(d.toString())));
    const orphan = Number(/running (\d+)/.exec(line)![1]);
    host.kill('SIGKILL');
    await new Promise((r) => host.once('exit', r));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(orphan)).toBe(true); // the crash left the server running
    const again = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new (await import('../services/secrets.js')).MemorySecretStore(), userId: 'desktop' });
    try {
      await again.start();
      expect(again.status().state).toBe('running');
      await waitFor(() => !alive(orphan), 'the orphan to be gone', 10_000);
    } finally {
      await again.stop();
    }
  });
});

describe('a team database in the user environment', () => {
  it('does not redirect the local studio, which stays on its own SQLite store', async () => {
    const dir = tempDir('ps-envleak-');
    const saved = process.env.DATABASE_URL;
    // A PostgreSQL nobody listens on: a studio that took it would never come up.
    process.env.DATABASE_URL = 'postgres://nobody:nothing@127.0.0.1:1/none';
    const studioHere = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new (await import('../services/secrets.js')).MemorySecretStore(), userId: 'desktop' });
    try {
      await studioHere.start();
      expect(studioHere.status().state).toBe('running');
      expect(existsSync(join(dir, 'studio.db'))).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
      await studioHere.stop();
    }
  });
});
