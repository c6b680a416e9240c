// The desktop's privileged side against the real local studio: the launcher starts server/ with
// a service key it created and stored, the bridge handlers drive it, and the key never shows up
// in any bridge answer, event, log line or file. The studio is restarted when it dies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { documentText, isTerminal, type Job } from '../../shared/contract/index.js';
import type { Draft, StudioEvent } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import { DESKTOP_KEY_LABEL, LocalStudio } from '../services/local-studio.js';
import { ProfileStore } from '../services/profiles.js';
import { createSecretStore, MemorySecretStore, type SecretStore } from '../services/secrets.js';
import { createStudio, type Studio } from '../services/studio.js';
import { ROOT, filesUnder, serverCommandForTests, tempDir, testLogger, waitFor } from './helpers.js';

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
    log: testLogger(logs),
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
    const draft = await ok<Draft>('jobs.duplicate', { id: jobs[0]!.id });
    expect(documentText(await ok<Draft>('drafts.get', { id: draft.id }))).toBe(jobs[0]!.text);
  });

  it('restarts the studio when it dies', async () => {
    const pid = local.pid!;
    process.kill(pid, 'SIGKILL');
    const st = await waitFor(async () => {
      const s = await ok<{ state: string; restarts: number }>('studio.status');
      return s.state === 'running' && s.restarts >= 1 && local.pid !== pid ? s : null;
    }, 'the studio to come back', 60_000);
    expect(st.restarts).toBeGreaterThanOrEqual(1);
    // From the studio at its new address, not from the offline cache.
    const list = await ok<{ jobs: Job[]; fromCache: boolean }>('jobs.list', {});
    expect(list.fromCache).toBe(false);
    expect(list.jobs.length).toBeGreaterThanOrEqual(2);
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

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Children of a process (Linux /proc), with their command names. */
function childrenOf(pid: number): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === pid) out.push({ pid: Number(d), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function startHost(dir: string, mode?: string) {
  const host = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'electron/test/fixtures/studio-host.ts'), dir, ...(mode ? [mode] : [])], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<{ pid: number; url: string }>((resolve, reject) => {
    let out = '';
    host.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /running (\d+) (\S+)/.exec(out);
      if (m) resolve({ pid: Number(m[1]), url: m[2]! });
    });
    host.once('exit', (code) => reject(new Error(`the host exited (${code}) before its studio ran`)));
  });
  return { host, ready };
}

describe('the studio never outlives the app', () => {
  it.skipIf(process.platform !== 'linux')('exits with its ffmpeg within 5 s when the app is killed (SIGKILL) mid-render', async () => {
    const dir = tempDir('ps-parent-');
    const { host, ready } = startHost(dir, 'render');
    const { pid } = await ready;
    const ffmpeg = await waitFor(() => childrenOf(pid).find((c) => c.comm.startsWith('ffmpeg')) ?? null, 'ffmpeg under the studio', 60_000);
    host.kill('SIGKILL');
    const killedAt = Date.now();
    await waitFor(() => !alive(pid) && !alive(ffmpeg.pid), 'the studio and its ffmpeg to be gone', 10_000);
    expect(Date.now() - killedAt).toBeLessThan(5000);
    // Nothing was lost: the render it was doing waits, queued, for the next start.
    const again = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new MemorySecretStore(), userId: 'desktop' });
    try {
      await again.start();
      const r = await fetch(`${again.status().baseUrl}/api/jobs`, { headers: { authorization: `Bearer ${await again.key()}`, 'x-user-id': 'desktop' } });
      const { jobs } = (await r.json()) as { jobs: Job[] };
      expect(jobs).toHaveLength(1);
      expect(['queued', 'rendering', 'completed']).toContain(jobs[0]!.status);
    } finally {
      await again.stop();
    }
  });

  it('stops gracefully when the app quits: stdin closed, no kill needed, pid file removed', async () => {
    const dir = tempDir('ps-stop-');
    const logs: string[] = [];
    const s = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new MemorySecretStore(), userId: 'desktop', log: (l) => logs.push(l) });
    await s.start();
    const pid = s.pid!;
    await s.stop();
    expect(alive(pid)).toBe(false);
    expect(logs.join('\n')).toContain('parent gone: shutting down');
    expect(logs.join('\n')).not.toContain('killing it');
    expect(existsSync(join(dir, 'studio.pid'))).toBe(false);
  });

  it('stops a studio whose start is still under way (the app quit while it started)', async () => {
    for (const stopAfter of ['start', 'spawn'] as const) {
      const dir = tempDir('ps-stopstart-');
      const s = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new MemorySecretStore(), userId: 'desktop' });
      const started = s.start();
      // Right away (while its key is being made), or once the server process exists.
      if (stopAfter === 'spawn') await waitFor(() => existsSync(join(dir, 'studio.pid')) || null, 'the studio process to be spawned', 30_000);
      await s.stop();
      await started;
      await new Promise((r) => setTimeout(r, 1500)); // a start that went on would have spawned by now
      expect(s.status().state, stopAfter).toBe('stopped');
      expect(s.pid, stopAfter).toBeNull();
      const pid = existsSync(join(dir, 'studio.pid')) ? Number(readFileSync(join(dir, 'studio.pid'), 'utf8')) : null;
      if (pid) await waitFor(() => !alive(pid), 'the studio to be gone', 5000);
    }
  });

  it('stops a studio left running by an earlier session, found by its pid file', async () => {
    const dir = tempDir('ps-orphan-');
    // A studio that does not watch its parent (e.g. hung), as an earlier app left it.
    const cmd = serverCommandForTests();
    const orphan = spawn(cmd.cmd, [...cmd.args, 'serve', '--port', '0', '--data', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    await new Promise<void>((resolve) => orphan.stdout.on('data', (d: Buffer) => /listening/.test(d.toString()) && resolve()));
    writeFileSync(join(dir, 'studio.pid'), String(orphan.pid));
    const again = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new MemorySecretStore(), userId: 'desktop' });
    try {
      await again.start();
      expect(again.status().state).toBe('running');
      await waitFor(() => !alive(orphan.pid!), 'the orphan to be gone', 10_000);
    } finally {
      await again.stop();
    }
  });

  it('leaves alone a process that was given the same PID later (not our studio)', async () => {
    const dir = tempDir('ps-pidreuse-');
    const stranger = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    writeFileSync(join(dir, 'studio.pid'), String(stranger.pid));
    const again = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new MemorySecretStore(), userId: 'desktop' });
    try {
      await again.start();
      expect(again.status().state).toBe('running');
      expect(alive(stranger.pid!)).toBe(true);
    } finally {
      await again.stop();
      stranger.kill('SIGKILL');
    }
  });
});

describe('keys of a keychain that only lives in memory', () => {
  // Three studio starts and stops in a row: on a loaded 2-core machine each takes up to ~20 s.
  it('are revoked at the next start, so they never pile up', { timeout: 150_000 }, async () => {
    const dir = tempDir('ps-memkeys-');
    const keys: string[] = [];
    for (let run = 0; run < 3; run++) {
      const s = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new MemorySecretStore(), userId: 'desktop' });
      await s.start();
      keys.push((await s.key())!);
      await s.stop();
    }
    const cmd = serverCommandForTests();
    const list = spawnSync(cmd.cmd, [...cmd.args, 'keys', 'list', '--data', dir], { cwd: ROOT, encoding: 'utf8' }).stdout;
    const active = list.split('\n').filter((l) => l.includes(DESKTOP_KEY_LABEL) && l.split('\t')[4] === 'active');
    expect(active).toHaveLength(1);
    expect(new Set(keys).size).toBe(3);
  });
});

describe('a team database in the user environment', () => {
  it('does not redirect the local studio, which stays on its own SQLite store', async () => {
    const dir = tempDir('ps-envleak-');
    const saved = process.env.DATABASE_URL;
    // A PostgreSQL nobody listens on: a studio that took it would never come up.
    process.env.DATABASE_URL = 'postgres://nobody:nothing@127.0.0.1:1/none';
    const studioHere = new LocalStudio({ command: serverCommandForTests(), dataDir: dir, secrets: new MemorySecretStore(), userId: 'desktop' });
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
