// The embedded store on a full disk, made for real: SQLite's max_page_count on the server's own
// connection, after its free pages are used up, so every write that needs a page fails with
// "database or disk is full". A create is then a 503 with Retry-After (never a 500), and a job
// whose failure could not be written does not stay `rendering` once there is space again, however
// long the disk stayed full: the recovery keeps sweeping with a bounded pause.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Job } from '../../shared/contract/index.js';
import type { SqliteDatabase } from '../jobs/sqlite-db.js';
import { createTestEngine } from './fixtures/test-engine.js';
import { call, errorCode, testServer, validRequest, waitFor } from './helpers.js';
import type { TestServer } from './helpers.js';

const skip = process.env.TEST_STORE === 'postgres'; // a full PostgreSQL disk is the database's own affair
const engine = createTestEngine();
let s: TestServer;
let key: string;
let db: SqliteDatabase;
// The server's log lines, to see its recovery fail while the disk is full (instead of a sleep).
const LogLine = z.object({ msg: z.string().optional(), failures: z.number().optional() });
const logs: z.infer<typeof LogLine>[] = [];
const logStream = new PassThrough();
logStream.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(LogLine.parse(JSON.parse(line)));
});

beforeAll(async () => {
  if (skip) return;
  // The sweep and its retry pauses shortened; their real bounds are the Backoff unit test's.
  s = await testServer({ engine, concurrency: 1, leaseMs: 1500, logLevel: 'warn', logStream, recovery: { intervalMs: 20, retry: { firstMs: 20, maxMs: 100 } } });
  key = await s.userKey('full');
  // The server's connection: max_page_count holds only for the connection that sets it.
  db = (s.store as unknown as { sqlite: { db: SqliteDatabase } }).sqlite.db;
  db.exec('CREATE TABLE filler (b BLOB)');
});
afterAll(() => s?.stop());

function fillDisk(): void {
  const pages = db.prepare('PRAGMA page_count').value<number>()!;
  db.exec(`PRAGMA max_page_count = ${pages}`);
  const insert = db.prepare('INSERT INTO filler VALUES (zeroblob(?))');
  for (const size of [3000, 1000, 200]) {
    try {
      for (;;) insert.run(size);
    } catch (err) {
      expect(String(err)).toMatch(/database or disk is full/);
    }
  }
}

function freeDisk(): void {
  db.exec('PRAGMA max_page_count = 1073741823');
}

const getJob = async (id: string) => (await call(`${s.url}/api/jobs/${id}`, { key })).body as Job;

describe.skipIf(skip)('a full disk', () => {
  it('answers a create with 503 unavailable and Retry-After, not 500', async () => {
    fillDisk();
    try {
      const r = await call(`${s.url}/api/render`, { key, json: { ...validRequest, text: `Long script. ${'word '.repeat(950)}` } });
      expect(r.status).toBe(503);
      expect(errorCode(r)).toBe('unavailable');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(r.body.error.message).toMatch(/disk is full/);
    } finally {
      freeDisk();
    }
  });

  it('recovers a job left rendering by a failed write, without a restart', async () => {
    const created = await call(`${s.url}/api/render`, { key, json: { ...validRequest, text: 'Hello [hold] [fail:long]' } });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    await waitFor(async () => (await getJob(id)).status === 'rendering');
    fillDisk();
    // max_page_count cannot refuse a write that fits in pages already there (the failure, when
    // the job's page has room for it); a real full disk refuses it too (the WAL cannot grow), and
    // query_only refuses every write, as such a disk does.
    db.exec('PRAGMA query_only = 1');
    try {
      engine.release(); // the render fails; writing that failure fails
      await waitFor(async () => logs.some((l) => l.msg === 'render bookkeeping failed'));
      expect((await getJob(id)).status).toBe('rendering');
      // Its lease lapses; the recovery sweep keeps trying to put it back and failing, and goes on
      // (its 16th failure in a row is logged) with a pause that never grows past its ceiling.
      await waitFor(async () => logs.some((l) => l.msg === 'lease recovery failed' && l.failures === 16));
      expect((await getJob(id)).status).toBe('rendering');
    } finally {
      db.exec('PRAGMA query_only = 0');
      freeDisk();
    }
    // Taken up again (its second attempt), and this time its failure is written.
    await waitFor(async () => engine.started.filter((j) => j === id).length === 2);
    engine.release();
    const failed = await waitFor(async () => {
      const job = await getJob(id);
      return job.status === 'failed' ? job : null;
    });
    expect(failed.error?.code).toBe('speech_failed');
  }, 30_000);

  it('says in the log when a rendering job’s progress and lease cannot be written, and goes on', async () => {
    const created = await call(`${s.url}/api/render`, { key, json: { ...validRequest, text: 'Hello [slow:3000]' } });
    const id = created.body.id as string;
    await waitFor(async () => (await getJob(id)).status === 'rendering');
    db.exec('PRAGMA query_only = 1');
    try {
      await waitFor(async () => logs.some((l) => l.msg === 'progress not saved') && logs.some((l) => l.msg === 'lease renewal failed'));
    } finally {
      db.exec('PRAGMA query_only = 0');
    }
    await waitFor(async () => (await getJob(id)).status === 'completed');
  }, 30_000);
});
