// The PostgreSQL store against a real PostgreSQL, as several processes would use it (one
// store instance per "process"): migrations that run once whoever starts first, claims that
// never hand one job to two workers, leases that bring a dead worker's job back (3 attempts),
// changes relayed between processes; and the versioned SQLite migrations, and first-wins
// publishing into a shared output directory.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSqlite } from '../jobs/migrations/runner.js';
import { SQLITE_MIGRATIONS } from '../jobs/migrations/sqlite.js';
import { POSTGRES_MIGRATIONS } from '../jobs/migrations/postgres.js';
import { PostgresJobStore } from '../jobs/postgres-store.js';
import { WorkerQueue } from '../jobs/queue.js';
import type { JobChange, NewJob } from '../jobs/store.js';
import { openDatabase } from '../jobs/sqlite-store.js';
import { SqliteDatabase } from '../jobs/sqlite-db.js';
import { SharedDirOutputStorage } from '../storage/shared-dir-storage.js';
import { freshSchema, NO_POSTGRES, testDatabaseUrl } from './postgres-db.js';
import { createTestEngine } from './fixtures/test-engine.js';
import { waitFor } from './helpers.js';

const pgUrl = testDatabaseUrl();
if (!pgUrl) console.warn(`postgres-store.test.ts ${NO_POSTGRES}`);

const input = (userId: string, text = 'Hello there'): NewJob => ({
  userId,
  text,
  templateId: 'newsroom',
  voiceId: 'en-US-Ava',
  params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.6 } },
});
const opts = { maxActive: 1000, idempotencyTtlMs: 60_000 };

describe.skipIf(!pgUrl)('PostgreSQL job store', () => {
  let schema: Awaited<ReturnType<typeof freshSchema>>;
  const stores: PostgresJobStore[] = [];
  const open = async () => {
    const s = await PostgresJobStore.open({ url: schema.url, poolSize: 4 });
    stores.push(s);
    return s;
  };

  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await schema?.drop();
  });

  it('migrates once when three processes start at the same time, and again is a no-op', async () => {
    const [a] = await Promise.all([open(), open(), open()]);
    const { rows } = await a!.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    await open();
    expect((await a!.pool.query('SELECT version FROM schema_migrations')).rowCount).toBe(POSTGRES_MIGRATIONS.length);
  });

  it('refuses a database migrated by a newer release', async () => {
    const other = await freshSchema();
    try {
      const s = await PostgresJobStore.open({ url: other.url });
      await s.pool.query("INSERT INTO schema_migrations VALUES (999, 'from the future', 'now')");
      await s.close();
      await expect(PostgresJobStore.open({ url: other.url })).rejects.toThrow(/schema version 999, newer than this release/);
    } finally {
      await other.drop();
    }
  });

  it('hands each queued job to exactly one of many workers claiming at once', async () => {
    const [a, b, c] = [stores[0]!, stores[1]!, stores[2]!];
    const created: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await a.create(input(`claim-${i % 4}`), opts);
      if (r.kind === 'created') created.push(r.job.id);
    }
    const claimed: string[] = [];
    await Promise.all(
      [a, b, c].flatMap((s, si) =>
        [0, 1, 2].map(async (wi) => {
          for (;;) {
            const job = await s.claimNext(`w-${si}-${wi}`, 60_000);
            if (!job) return;
            claimed.push(job.id);
          }
        }),
      ),
    );
    expect(claimed.sort()).toEqual(created.sort());
    const counts = (await a.list({ userId: 'claim-0', limit: 100 })).counts;
    expect(counts.rendering).toBe(10);
    expect(counts.queued).toBe(0);
  });

  it('brings back the job of a worker whose lease lapsed; after 3 attempts it fails worker_lost', async () => {
    const [a, b] = [stores[0]!, stores[1]!];
    const { job } = (await a.create(input('lease'), opts)) as { kind: 'created'; job: { id: string } };
    for (let attempt = 1; attempt <= 3; attempt++) {
      let mine = await b.claimNext(`dead-${attempt}`, 300);
      while (mine && mine.id !== job.id) mine = await b.claimNext(`dead-${attempt}`, 300); // older jobs of other tests
      expect(mine?.attempts).toBe(attempt);
      expect(await b.renewLease(job.id, `dead-${attempt}`, 300)).toBe(true);
      expect((await a.recoverAbandoned({ all: false })).requeued).not.toContain(job.id); // lease still held
      await new Promise((r) => setTimeout(r, 350));
      const rec = await a.recoverAbandoned({ all: false });
      expect(attempt < 3 ? rec.requeued : rec.failed).toContain(job.id);
      // The dead worker cannot renew, complete or fail the job any more.
      expect(await b.renewLease(job.id, `dead-${attempt}`, 300)).toBe(false);
      const late = await b.transition(job.id, null, { to: 'failed', error: { code: 'internal_error', message: 'late' } }, `dead-${attempt}`);
      expect(late.ok).toBe(false);
    }
    const final = await a.get(job.id, 'lease');
    expect(final?.status).toBe('failed');
    expect(final?.error?.code).toBe('worker_lost');
  });

  it("relays one process's changes to another's subscribers, long texts included", async () => {
    const [a, b] = [stores[0]!, stores[1]!];
    const seen: JobChange[] = [];
    const off = b.subscribe((c) => seen.push(c));
    const long = 'Ünïcödé script. '.repeat(300); // beyond a notification's 8000 bytes
    const r1 = await a.create(input('relay', long), opts);
    const r2 = await a.create(input('relay'), opts);
    if (r1.kind !== 'created' || r2.kind !== 'created') throw new Error('not created');
    await a.transition(r2.job.id, 'relay', { to: 'canceled' });
    await a.delete(r2.job.id, 'relay');
    await waitFor(async () => seen.length >= 4);
    off();
    expect(seen.map((c) => [c.kind, c.job.id, c.job.status])).toEqual([
      ['created', r1.job.id, 'queued'],
      ['created', r2.job.id, 'queued'],
      ['updated', r2.job.id, 'canceled'],
      ['deleted', r2.job.id, 'canceled'],
    ]);
    expect(seen[0]!.job.text).toBe(long);
  });

  it('listens again after its connection was cut (a database restart, a proxy timeout)', async () => {
    const [a, b] = [stores[0]!, stores[1]!];
    const cut = await a.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'presenter-studio listener' AND query LIKE $1",
      [`LISTEN "${b.channel}"`],
    );
    expect(cut.rowCount).toBeGreaterThan(0);
    const seen: string[] = [];
    const off = b.subscribe((c) => seen.push(c.job.id));
    // Keep making changes until one arrives: the listener reconnects by itself within a second or so.
    const made: string[] = [];
    await waitFor(async () => {
      const r = await a.create(input('reconnect'), opts);
      if (r.kind === 'created') made.push(r.job.id);
      await new Promise((res) => setTimeout(res, 100));
      return seen.some((id) => made.includes(id));
    }, 10_000);
    off();
  });

  it('keeps a script with NUL characters exactly, and finds it by them', async () => {
    const a = stores[0]!;
    const text = 'Line one\u0000line TWO \ud83c\udfa4';
    const r = await a.create(input('nul', text), opts);
    if (r.kind !== 'created') throw new Error('not created');
    expect((await a.get(r.job.id, 'nul'))?.text).toBe(text);
    expect((await a.list({ userId: 'nul', q: 'one\u0000LINE', limit: 5 })).jobs.map((j) => j.id)).toEqual([r.job.id]);
    expect((await a.list({ userId: 'nul', q: '\u0000\u0000', limit: 5 })).jobs).toEqual([]);
    expect(await a.get(`${r.job.id}\u0000`, null)).toBeNull(); // ids from URLs: no such job, not an error
    expect(await a.transition(`${r.job.id}\u0000`, 'nul', { to: 'canceled' })).toEqual({ ok: false, reason: 'not_found' });
    expect(await a.delete('\u0000', 'nul')).toEqual({ ok: false, reason: 'not_found' });
  });

  it('keeps idempotency and the active-jobs quota atomic across processes', async () => {
    const [a, b, c] = [stores[0]!, stores[1]!, stores[2]!];
    const idem = { key: 'same-key', requestHash: 'h1' };
    const results = await Promise.all([a, b, c, a, b, c].map((s) => s.create(input('idem'), { ...opts, idempotency: idem })));
    expect(results.filter((r) => r.kind === 'created')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'replayed')).toHaveLength(5);
    const quota = await Promise.all([a, b, c, a, b, c].map((s) => s.create(input('quota'), { ...opts, maxActive: 2 })));
    expect(quota.filter((r) => r.kind === 'created')).toHaveLength(2);
    expect(await c.activeCount('quota')).toBe(2);
  });
});

describe.skipIf(!pgUrl)('a worker queue on the shared store', () => {
  it('keeps rendering when late news from before its claim arrives, and stops when its job moved on', async () => {
    const schema = await freshSchema();
    const root = mkdtempSync(join(tmpdir(), 'ps-late-'));
    const [a, b] = [await PostgresJobStore.open({ url: schema.url }), await PostgresJobStore.open({ url: schema.url })];
    const engine = createTestEngine();
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const queue = new WorkerQueue({
      store: b,
      storage: new SharedDirOutputStorage(join(root, 'media')),
      engine,
      workRoot: join(root, 'work'),
      concurrency: 1,
      shortSide: 720,
      log: quiet,
      leaseMs: 60_000,
    });
    try {
      const created = await a.create(input('late', 'late news [hold]'), opts);
      if (created.kind !== 'created') throw new Error('not created');
      const id = created.job.id;
      queue.start();
      await waitFor(async () => engine.started.includes(id));
      // The job's `created` notice, delivered late (after the claim), as another process sent it.
      await a.pool.query('SELECT pg_notify($1, $2)', [a.channel, JSON.stringify({ o: 'elsewhere', k: 'created', j: created.job })]);
      await new Promise((r) => setTimeout(r, 300));
      expect(queue.active).toBe(1);
      engine.release();
      await waitFor(async () => (await a.get(id, null))?.status === 'completed');
      expect((await a.get(id, null))?.attempts).toBe(1);

      // Its lease taken away (as if it had lapsed): the render stops, the job is rendered again.
      const second = await a.create(input('late', 'taken over [hold]'), opts);
      if (second.kind !== 'created') throw new Error('not created');
      await waitFor(async () => engine.started.includes(second.job.id));
      await a.pool.query('UPDATE jobs SET lease_until = 0 WHERE id = $1', [second.job.id]);
      expect((await a.recoverAbandoned({ all: false })).requeued).toEqual([second.job.id]);
      await waitFor(async () => engine.started.filter((j) => j === second.job.id).length === 2);
      engine.release();
      await waitFor(async () => (await a.get(second.job.id, null))?.status === 'completed');
      expect((await a.get(second.job.id, null))?.attempts).toBe(2);
    } finally {
      engine.release();
      await queue.stop(1000);
      await a.close();
      await b.close();
      await schema.drop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('SQLite migrations', () => {
  it('adopts a database from before schema_migrations and applies the rest once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ps-migrate-'));
    try {
      const file = join(dir, 'studio.db');
      const legacy = new SqliteDatabase(file);
      legacy.exec(SQLITE_MIGRATIONS[0]!.sql);
      legacy.exec('PRAGMA user_version = 1');
      legacy.prepare("INSERT INTO jobs (id, user_id, status, search, doc) VALUES ('job_1', 'u', 'queued', 'x', '{}')").run();
      legacy.close();
      const db = openDatabase(file);
      const rows = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[];
      expect(rows.map((r) => r.version)).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
      expect(rows[0]!.name).toMatch(/adopted/);
      expect(db.prepare('SELECT count(*) FROM jobs').value()).toBe(1); // data kept
      expect(migrateSqlite(db, SQLITE_MIGRATIONS)).toEqual([]); // again: nothing to do
      db.close();
      const again = openDatabase(file); // a second process opening the same file
      expect(again.prepare('SELECT count(*) FROM schema_migrations').value()).toBe(SQLITE_MIGRATIONS.length);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shared output directory', () => {
  it('publishes first-wins: a second render of a job never replaces or mixes with the first', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ps-shared-'));
    try {
      const storage = new SharedDirOutputStorage(join(root, 'media'));
      const render = (tag: string) => {
        const work = join(root, `work-${tag}`);
        mkdirSync(work);
        for (const f of ['video.mp4', 'captions.vtt', 'thumbnail.jpg']) writeFileSync(join(work, f), `${tag}:${f}`);
        return work;
      };
      const [one, two] = await Promise.all([storage.publish('job_X', render('one')), storage.publish('job_X', render('two'))]);
      expect(one.videoBytes).toBe(two.videoBytes);
      const files = readdirSync(join(root, 'media', 'job_X')).sort();
      expect(files).toEqual(['captions.vtt', 'thumbnail.jpg', 'video.mp4']);
      const tags = new Set(files.map((f) => readFileSync(join(root, 'media', 'job_X', f), 'utf8').split(':')[0]));
      expect(tags.size).toBe(1); // all three from the same render
      expect(readdirSync(join(root, 'media'))).toEqual(['job_X']); // no staging left behind
      // A late second run (its worker's lease had lapsed) finds the first in place and leaves it.
      await storage.publish('job_Z', render('first'));
      await storage.publish('job_Z', render('late'));
      expect(readFileSync(join(root, 'media', 'job_Z', 'video.mp4'), 'utf8')).toBe('first:video.mp4');
      await expect(storage.publish('job_Y', join(root, 'nowhere'))).rejects.toThrow(/produced no video.mp4/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
