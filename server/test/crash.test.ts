// Crash test: the real CLI as a child process, kill -9 while jobs are queued and rendering,
// restart: every job answered 202 is still there and ends in a valid state; a job whose
// render died 3 times ends failed/worker_lost.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Job } from '../../shared/contract/index.js';
import { openKeyStore } from '../start.js';
import { validRequest, waitFor } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = fileURLToPath(new URL('./fixtures/test-engine.ts', import.meta.url));

let dataDir: string;
let key: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ps-crash-'));
  const { keys, close } = openKeyStore(dataDir);
  key = (await keys.create({ kind: 'user', userId: 'crash' })).key;
  close();
});
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Spawns `server/cli.ts serve` on the shared data folder (node itself, so SIGKILL hits the server). */
function spawnServe(renderMs: number, extra: string[] = [], stderr: 'inherit' | 'pipe' = 'inherit'): ChildProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/cli.ts', 'serve', '--port', '0', '--data', dataDir, '--concurrency', '1', '--log-level', 'warn', ...extra],
    {
      cwd: ROOT,
      env: { ...process.env, PRESENTER_STUDIO_TEST_ENGINE: ENGINE, PRESENTER_STUDIO_TEST_ENGINE_MS: String(renderMs) },
      stdio: ['ignore', 'pipe', stderr],
    },
  );
  children.push(child);
  return child;
}

/** Starts a server and waits for its ready line. */
async function serve(renderMs: number, extra: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnServe(renderMs, extra);
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^listening (http:\/\/\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${out}`)));
  });
  return { child, url };
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Creates a job on a server; returns its id. */
async function submit(url: string, text: string): Promise<string> {
  const res = await fetch(`${url}/api/render`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...validRequest, text }),
  });
  return ((await res.json()) as Job).id;
}

const get = async (url: string, id: string) =>
  (await (await fetch(`${url}/api/jobs/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Job;

it('keeps every accepted job across kill -9 while creating, queued and rendering', { timeout: 90_000 }, async () => {
  const first = await serve(60_000);
  const accepted: string[] = [];
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < 40; i++) {
    inflight.push(
      fetch(`${first.url}/api/render`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...validRequest, text: `crash job ${i}` }),
      })
        .then(async (r) => {
          if (r.status === 202) accepted.push(((await r.json()) as Job).id);
        })
        .catch(() => undefined), // connections cut by the kill
    );
  }
  // Kill while creates are still arriving and one job renders.
  await waitFor(async () => accepted.length >= 15);
  await waitFor(async () => (await get(first.url, accepted[0]!)).status === 'rendering');
  await kill9(first.child);
  await Promise.all(inflight);
  expect(accepted.length).toBeGreaterThanOrEqual(15);

  const second = await serve(20);
  const finals = await waitFor(
    async () => {
      const jobs = await Promise.all(accepted.map((id) => get(second.url, id)));
      return jobs.every((j) => j.status === 'completed') ? jobs : null;
    },
    60_000,
  );
  for (const job of finals) {
    Job.parse(job);
    expect(job.output?.sizeBytes).toBeGreaterThan(0);
  }
  // The list shows each accepted job exactly once.
  const list = (await (await fetch(`${second.url}/api/jobs?limit=100`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    jobs: Job[];
  };
  const listed = list.jobs.map((j) => j.id);
  for (const id of accepted) expect(listed.filter((x) => x === id)).toHaveLength(1);
  await kill9(second.child);
});

it('fails a job with worker_lost after its render died 3 times', { timeout: 90_000 }, async () => {
  let server = await serve(60_000);
  const id = await submit(server.url, 'doomed');
  for (let attempt = 1; attempt <= 3; attempt++) {
    await waitFor(async () => (await get(server.url, id)).status === 'rendering', 20_000);
    await kill9(server.child);
    server = await serve(60_000);
  }
  const job = await get(server.url, id);
  expect(job.status).toBe('failed');
  expect(job.error?.code).toBe('worker_lost');
  await kill9(server.child);
});

it('on SIGTERM stops accepting, requeues the running render after the grace period and exits 0', { timeout: 60_000 }, async () => {
  const server = await serve(60_000, ['--grace-ms', '300']);
  const id = await submit(server.url, 'interrupted politely');
  await waitFor(async () => (await get(server.url, id)).status === 'rendering', 20_000);
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
  server.child.kill('SIGTERM');
  expect(await exited).toBe(0);
  await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
  const again = await serve(20);
  const job = await waitFor(async () => {
    const j = await get(again.url, id);
    return j.status === 'completed' ? j : null;
  }, 30_000);
  expect(job.output).not.toBeNull();
  await kill9(again.child);
});

it('refuses a second server on the same data folder while the first renders, and takes over a dead one\'s lock', { timeout: 90_000 }, async () => {
  const first = await serve(60_000);
  const id = await submit(first.url, 'rendered once');
  const rendering = await waitFor(async () => {
    const j = await get(first.url, id);
    return j.status === 'rendering' ? j : null;
  }, 20_000);

  // Same port too: a second server that would fail to listen must not have touched the store either.
  const port = new URL(first.url).port;
  for (const extra of [[], ['--port', port]]) {
    const second = spawnServe(20, extra, 'pipe');
    let out = '';
    let err = '';
    second.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null | 'listening'>((resolve) => {
      second.once('exit', (c) => resolve(c));
      second.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('listening')) resolve('listening');
      });
    });
    expect(code, out + err).toBe(1);
    expect(out).not.toContain('listening');
    expect(err).toContain(`in use by another server (pid ${first.child.pid}`);
  }
  // The first server's render is untouched: still the same attempt, still rendering.
  const after = await get(first.url, id);
  expect(after.status).toBe('rendering');
  expect(after.startedAt).toBe(rendering.startedAt);
  expect(after.error).toBeNull();

  // The holder dies: its lock goes with it, and the next server takes the folder over.
  await kill9(first.child);
  const third = await serve(20);
  const done = await waitFor(async () => {
    const j = await get(third.url, id);
    return j.status === 'completed' ? j : null;
  }, 30_000);
  expect(done.output).not.toBeNull();
  await kill9(third.child);
});
