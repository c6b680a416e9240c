// Fleet test on one machine: 2 API processes (--workers 0) and 3 worker processes on one
// PostgreSQL store and one shared output directory, all real CLI processes. 300 jobs from
// 10 users; an API process is killed -9 while requests are in flight, a worker is killed -9
// mid-render. Every accepted job completes exactly once, every user sees exactly their jobs
// from either API process, and SSE clients of both see every change. Renders use the test
// engine (a tiny real MP4 per job after a short wait): 300 real renders would take far too
// long here; bench/fleet.ts measures the real engine. A scene job whose pictures one API
// process received renders on a worker process, which reads them from the shared directory.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, AssetList, Job, JobList } from '../../shared/contract/index.js';
import { pdf, picture } from './fixtures/media.js';
import { openPostgres } from '../jobs/pg-backend.js';
import type { PgBackend } from '../jobs/pg-backend.js';
import { call, validRequest, waitFor } from './helpers.js';
import { freshSchema, NO_POSTGRES, testDatabaseUrl } from './postgres-db.js';
import { openEvents } from './sse-client.js';
import type { EventStream } from './sse-client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENGINE = fileURLToPath(new URL('./fixtures/test-engine.ts', import.meta.url));
const USERS = Array.from({ length: 10 }, (_, i) => `fleet-user-${i}`);
const JOBS_PER_USER = 30;
const LEASE_MS = 1500;

const pgUrl = testDatabaseUrl();
if (!pgUrl) console.warn(`fleet.test.ts ${NO_POSTGRES}`);

interface Proc {
  child: ChildProcess;
  out: string;
  url?: string;
  workerId?: string;
}

let schema: Awaited<ReturnType<typeof freshSchema>>;
let db: PgBackend;
let tmp: string;
let storage: string;
const procs: Proc[] = [];
const keys = new Map<string, string>();

function start(args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const p: Proc = { child, out: '' };
  procs.push(p);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      p.out += d.toString();
      const m = ready.exec(p.out);
      if (m && !p.url && !p.workerId) {
        if (m[1]!.startsWith('http')) p.url = m[1];
        else p.workerId = m[1];
        resolve(p);
      }
    });
    child.on('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before it was ready: ${p.out}`)));
  });
}

const api = () =>
  start(
    ['serve', '--port', '0', '--data', mkdtempSync(join(tmp, 'api-')), '--database', schema.url, '--storage', storage, '--workers', '0',
      '--log-level', 'warn', '--creates-per-minute', '100000', '--heartbeat-ms', '1000'],
    /^listening (http:\/\/\S+)$/m,
  );

/** A worker; `renderMs` is how long each test render takes, 'real' runs the project's engine. */
const worker = (renderMs: number | 'real' = 150) =>
  start(
    ['worker', '--database', schema.url, '--storage', storage, '--concurrency', renderMs === 'real' ? '1' : '2', '--lease-ms', String(LEASE_MS),
      '--work', mkdtempSync(join(tmp, 'worker-'))],
    /"workerId":"(worker_[^"]+)".*"worker ready"/,
    renderMs === 'real' ? {} : { PRESENTER_STUDIO_TEST_ENGINE: ENGINE, PRESENTER_STUDIO_TEST_ENGINE_MS: String(renderMs) },
  );

/** ffmpeg processes started by a process. */
function ffmpegChildren(pid: number): number[] {
  const r = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter((l) => /ffmpeg/.test(l))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

function kill9(p: Proc): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGKILL');
  });
}

async function streams(url: string): Promise<Map<string, EventStream>> {
  const out = new Map<string, EventStream>();
  for (const u of USERS) {
    const s = await openEvents(url, { authorization: `Bearer ${keys.get(u)}` });
    expect(s.status).toBe(200);
    out.set(u, s);
  }
  return out;
}

async function listAll(url: string, user: string): Promise<JobList> {
  const r = await call(`${url}/api/jobs?limit=100`, { key: keys.get(user)! });
  return JobList.parse(r.body);
}

describe.skipIf(!pgUrl)('a fleet on PostgreSQL', () => {
  beforeAll(async () => {
    schema = await freshSchema();
    tmp = mkdtempSync(join(tmpdir(), 'ps-fleet-'));
    storage = join(tmp, 'shared-media');
    db = await openPostgres(schema.url);
    for (const u of USERS) keys.set(u, (await db.keys.create({ kind: 'user', userId: u })).key);
  });

  afterAll(async () => {
    await Promise.all(procs.map(kill9));
    await db?.close();
    await schema?.drop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('completes every accepted job exactly once through kill -9 of an API process and a worker', { timeout: 120_000 }, async () => {
    // Any start order: one worker before the API processes, two after.
    const t0 = Date.now();
    const w1 = await worker(2000); // slow renders: it is surely mid-render when it is killed
    const [a, b] = await Promise.all([api(), api()]);
    const sseA = await streams(a.url!);
    const sseB = await streams(b.url!);

    // 300 jobs, 10 users submitting at once, alternating API processes; B dies mid-way.
    const accepted = new Map<string, string>(); // idempotency key -> job id
    let bDead = false;
    let retried = 0;
    let sent = 0;
    let killing: Promise<void> | null = null;
    const submit = async (user: string, i: number) => {
      const idem = `${user}-${i}`;
      const json = { ...validRequest, text: `${user} job ${i}` };
      const headers = { 'idempotency-key': idem };
      let target = (sent++ % 2 === 0 || bDead ? a : b).url!;
      if (sent === 120) killing = kill9(b).then(() => void (bDead = true));
      for (;;) {
        try {
          const r = await call(`${target}/api/render`, { key: keys.get(user)!, json, headers });
          if (r.status === 202 || r.status === 200) {
            accepted.set(idem, Job.parse(r.body).id);
            return;
          }
          if (target !== a.url) target = a.url!; // B answered while dying (503): retry on A
          else throw new Error(`create failed: ${r.status} ${r.text}`);
        } catch (err) {
          if (target === a.url) throw err;
          retried++;
          target = a.url!; // B died mid-request: the same Idempotency-Key on A
        }
      }
    };
    await Promise.all(
      USERS.map(async (u) => {
        for (let i = 0; i < JOBS_PER_USER; i++) await submit(u, i);
      }),
    );
    await killing;
    console.info(`fleet: 300 jobs accepted in ${Date.now() - t0} ms`);
    expect(bDead).toBe(true);
    expect(retried).toBeGreaterThan(0); // some requests were cut off by the kill
    expect(accepted.size).toBe(USERS.length * JOBS_PER_USER);
    expect(new Set(accepted.values()).size).toBe(USERS.length * JOBS_PER_USER);

    // A new API process in B's place, with its own SSE clients, then two more workers.
    const b2 = await api();
    const sseB2 = await streams(b2.url!);
    const pendingAtB2 = new Set(
      (await db.store.pool.query<{ id: string }>("SELECT id FROM jobs WHERE status <> 'completed'")).rows.map((r) => r.id),
    );
    const [w2, w3] = await Promise.all([worker(), worker()]);

    // kill -9 worker 1 while it renders.
    await waitFor(
      async () =>
        (await db.store.pool.query<{ id: string }>("SELECT id FROM jobs WHERE status = 'rendering' AND worker_id = $1 LIMIT 1", [w1.workerId]))
          .rows[0]?.id,
      20_000,
    );
    await kill9(w1);
    // What it held when it died (its lease has not lapsed yet, so nobody has moved these on).
    const orphans = (
      await db.store.pool.query<{ id: string }>("SELECT id FROM jobs WHERE status = 'rendering' AND worker_id = $1", [w1.workerId])
    ).rows.map((r) => r.id);
    expect(orphans.length).toBeGreaterThan(0);

    // Everything completes (the victim after its lease lapsed, on another worker).
    await waitFor(
      async () => (await db.store.pool.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE status = 'completed'")).rows[0]!.n === '300',
      90_000,
    );
    console.info(`fleet: all completed at ${Date.now() - t0} ms`);
    const rows = (
      await db.store.pool.query<{ id: string; user_id: string; attempts: number; status: string }>('SELECT id, user_id, attempts, status FROM jobs')
    ).rows;
    expect(rows).toHaveLength(300);
    // Rendered exactly once, but for the renders the killed worker took with it: twice.
    expect(rows.filter((r) => r.attempts === 2).map((r) => r.id).sort()).toEqual(orphans.sort());
    expect(rows.filter((r) => r.attempts !== 2).every((r) => r.attempts === 1)).toBe(true);

    // One output per job in the shared directory, nothing half-written left behind.
    const entries = readdirSync(storage).sort();
    expect(entries).toEqual(rows.map((r) => r.id).sort());
    for (const id of entries) expect(readdirSync(join(storage, id)).sort()).toEqual(['captions.vtt', 'thumbnail.jpg', 'video.mp4']);

    // Each user sees exactly their jobs, all completed, from either API process; media from both.
    for (const u of USERS) {
      const mine = [...accepted].filter(([k]) => k.startsWith(`${u}-`)).map(([, id]) => id).sort();
      for (const url of [a.url!, b2.url!]) {
        const list = await listAll(url, u);
        expect(list.jobs.map((j) => j.id).sort()).toEqual(mine);
        expect(list.counts.completed).toBe(JOBS_PER_USER);
        expect(list.jobs.every((j) => j.status === 'completed')).toBe(true);
      }
    }
    const sample = (await listAll(b2.url!, USERS[3]!)).jobs[0]!;
    const video = await fetch(`${b2.url}${sample.output!.videoUrl}`, { headers: { authorization: `Bearer ${keys.get(USERS[3]!)}` } });
    expect(video.status).toBe(200);
    expect((await video.arrayBuffer()).byteLength).toBe(sample.output!.sizeBytes);

    // SSE: A's clients saw every job created (through A or B) and completed exactly once;
    // B2's clients saw every job that was still open when they connected complete.
    await waitFor(async () => [...sseA.values()].reduce((n, s) => n + s.jobs.filter((j) => j.status === 'completed').length, 0) >= 300, 10_000);
    for (const u of USERS) {
      const mine = [...accepted].filter(([k]) => k.startsWith(`${u}-`)).map(([, id]) => id);
      const evA = sseA.get(u)!.jobs;
      expect(evA.every((j) => mine.includes(j.id))).toBe(true); // nobody else's jobs
      for (const id of mine) {
        expect(evA.filter((j) => j.id === id && j.status === 'queued').length, `created ${id}`).toBeGreaterThanOrEqual(1);
        expect(evA.filter((j) => j.id === id && j.status === 'completed'), `completed ${id}`).toHaveLength(1);
        expect(evA.some((j) => j.id === id && j.status === 'rendering'), `rendering ${id}`).toBe(true); // a worker's change
        if (pendingAtB2.has(id)) expect(sseB2.get(u)!.jobs.filter((j) => j.id === id && j.status === 'completed')).toHaveLength(1);
      }
      // B's clients saw the changes up to B's death, and only their own user's.
      expect(sseB.get(u)!.jobs.length).toBeGreaterThan(0);
      expect(sseB.get(u)!.jobs.every((j) => mine.includes(j.id))).toBe(true);
    }
    for (const s of [...sseA.values(), ...sseB.values(), ...sseB2.values()]) s.close();

    // Jobs arriving while workers are idle: a worker often claims a job before the job's own
    // `created` notification reaches it; that late news must not stop the render.
    const burst = await Promise.all(
      USERS.flatMap((u, ui) =>
        [0, 1, 2, 3, 4, 5].map(async (i) => {
          const r = await call(`${[a, b2][(ui + i) % 2]!.url}/api/render`, { key: keys.get(u)!, json: { ...validRequest, text: `burst ${i}` } });
          return Job.parse(r.body).id;
        }),
      ),
    );
    await waitFor(async () => {
      const r = await db.store.pool.query<{ n: string }>("SELECT count(*) AS n FROM jobs WHERE id = ANY($1) AND status = 'completed'", [burst]);
      return r.rows[0]!.n === String(burst.length);
    }, 30_000);
    const burstAttempts = await db.store.pool.query<{ attempts: number }>('SELECT attempts FROM jobs WHERE id = ANY($1)', [burst]);
    expect(burstAttempts.rows.every((r) => r.attempts === 1)).toBe(true);

    // A cancel made through an API process reaches the worker rendering the job.
    const user = USERS[0]!;
    const held = Job.parse((await call(`${b2.url}/api/render`, { key: keys.get(user)!, json: { ...validRequest, text: 'hold me [hold]' } })).body);
    await waitFor(async () => (await db.store.get(held.id, null))?.status === 'rendering', 10_000);
    const holder = (await db.store.get(held.id, null))!.workerId!;
    expect((await call(`${a.url}/api/jobs/${held.id}/cancel`, { key: keys.get(user)!, method: 'POST' })).status).toBe(200);
    const w = [w2, w3].find((p) => p.workerId === holder)!;
    await waitFor(async () => new RegExp(`"jobId":"${held.id}".*"render canceled"`).test(w.out), 10_000);
    expect((await db.store.get(held.id, null))!.status).toBe('canceled');
  });

  it('stops ffmpeg on the worker when the job is canceled through an API process (real engine)', { timeout: 90_000 }, async () => {
    await Promise.all(procs.map(kill9)); // the test-engine workers of the test above would take the job
    const [c, w] = await Promise.all([api(), worker('real')]);
    const user = USERS[1]!;
    const text = 'This is a long narration for the cancel test, spoken slowly and clearly. '.repeat(12);
    const job = Job.parse((await call(`${c.url}/api/render`, { key: keys.get(user)!, json: { ...validRequest, text } })).body);
    const encoding = await waitFor(async () => ffmpegChildren(w.child.pid!)[0], 60_000);
    const r = await call(`${c.url}/api/jobs/${job.id}/cancel`, { key: keys.get(user)!, method: 'POST' });
    expect(r.status).toBe(200);
    await waitFor(async () => !ffmpegChildren(w.child.pid!).includes(encoding), 10_000);
    await waitFor(async () => new RegExp(`"jobId":"${job.id}".*"render canceled"`).test(w.out), 10_000);
    expect((await db.store.get(job.id, null))?.status).toBe('canceled');
    expect(readdirSync(storage)).not.toContain(job.id);
  });

  it("renders a scene job on a worker with the assets another node received", { timeout: 60_000 }, async () => {
    await Promise.all(procs.map(kill9));
    const [a, b, w] = await Promise.all([api(), api(), worker(50)]);
    const user = USERS[2]!;
    const auth = { authorization: `Bearer ${keys.get(user)}` };
    const files = { png: picture(320, 180, 'png'), pdf: pdf(2) };
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    // Both files arrive through API process A.
    const upload = async (name: string, type: string, bytes: Buffer) => {
      const r = await fetch(`${a.url}/api/assets?name=${name}`, { method: 'POST', headers: { ...auth, 'content-type': type }, body: new Uint8Array(bytes) });
      expect(r.status).toBe(201);
      return Asset.parse(await r.json());
    };
    const image = await upload('slide.png', 'image/png', files.png);
    const deck = await upload('deck.pdf', 'application/pdf', files.pdf);
    // B lists and serves them (one database, one shared directory).
    const listed = AssetList.parse((await call(`${b.url}/api/assets`, { key: keys.get(user)! })).body);
    expect(listed.assets.map((x) => x.id).sort()).toEqual([image.id, deck.id].sort());
    const content = await fetch(`${b.url}${image.contentUrl}`, { headers: auth });
    expect(Buffer.from(await content.arrayBuffer()).equals(files.png)).toBe(true);
    // The job goes in through B; the worker, a third process, renders it.
    const job = Job.parse((await call(`${b.url}/api/render`, {
      key: keys.get(user)!,
      json: { ...validRequest, text: undefined, scenes: [
        { text: 'Over the picture.', background: { assetId: image.id } },
        { text: 'Page two.', background: { assetId: deck.id, page: 2 }, transition: 'fade' },
        { text: 'Back to the studio.' },
      ] },
    })).body);
    await waitFor(async () => (await db.store.get(job.id, null))?.status === 'completed', 30_000);
    await waitFor(async () => new RegExp(`"jobId":"${job.id}".*"render finished"`).test(w.out), 5000); // logged just after the change
    // The worker read the very bytes A received.
    const captions = await (await fetch(`${a.url}/api/jobs/${job.id}/captions.vtt`, { headers: auth })).text();
    expect(captions).toContain(`image sha256:${sha(files.png)}`);
    expect(captions).toContain(`document sha256:${sha(files.pdf)}`);
    expect(captions).toContain('template');
    // A job naming the asset keeps it while queued; once finished, it can be deleted through either process.
    expect((await call(`${a.url}/api/assets/${image.id}`, { key: keys.get(user)!, method: 'DELETE' })).status).toBe(204);
    expect(readdirSync(join(storage, 'assets'))).not.toContain(image.id);
    expect((await call(`${b.url}/api/assets/${image.id}`, { key: keys.get(user)! })).status).toBe(404);
  });
});
