// Rows read back from a job store are checked against the contract, not trusted: a job whose
// stored document is corrupt or of the wrong shape answers the contract's internal_error
// (logged with the job's id), never the bad data, and the server goes on serving the others.
// On both stores: SQLite (the embedded default) and PostgreSQL; and key rows likewise.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Job } from '../../shared/contract/index.js';
import type { PostgresJobStore } from '../jobs/postgres-store.js';
import { SqliteDatabase } from '../jobs/sqlite-db.js';
import { call, errorCode, testServer, validRequest, waitFor } from './helpers.js';
import type { TestServer } from './helpers.js';
import { freshSchema, testDatabaseUrl } from './postgres-db.js';

const BAD_DOCS = {
  'not JSON': '{"id": "job_',
  'the wrong shape': JSON.stringify({ id: 'x', status: 'bogus', text: 42 }),
};

const stores = [
  {
    name: 'SQLite',
    open: () => testServer({ database: undefined }),
    corrupt: (s: TestServer, id: string, doc: string) => {
      const db = new SqliteDatabase(join(s.dataDir, 'studio.db'));
      try {
        db.exec('PRAGMA busy_timeout = 5000');
        db.prepare('UPDATE jobs SET doc = ? WHERE id = ?').run(doc, id);
      } finally {
        db.close();
      }
      return Promise.resolve();
    },
  },
  {
    name: 'PostgreSQL',
    skip: !testDatabaseUrl(),
    open: async () => {
      const schema = await freshSchema();
      const s = await testServer({ database: schema.url });
      return { ...s, stop: async () => (await s.stop(), await schema.drop()) };
    },
    corrupt: async (s: TestServer, id: string, doc: string) => {
      await (s.store as PostgresJobStore).pool.query('UPDATE jobs SET doc = $1 WHERE id = $2', [doc, id]);
    },
  },
];

let server: TestServer | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

describe.each(stores)('a corrupt job row ($name)', ({ open, corrupt, skip }) => {
  it.skipIf(skip).each(Object.entries(BAD_DOCS))('whose document is %s answers internal_error, not the data', async (_, doc) => {
    const s = (server = await open());
    const key = await s.userKey('alice');
    const [bad, good] = [await call(`${s.url}/api/render`, { key, json: validRequest }), await call(`${s.url}/api/render`, { key, json: validRequest })];
    // No engine here: both jobs fail at once; wait until nothing more is written to them.
    await waitFor(async () => (await call(`${s.url}/api/jobs/${good.body.id}`, { key })).body.status === 'failed');
    await waitFor(async () => (await call(`${s.url}/api/jobs/${bad.body.id}`, { key })).body.status === 'failed');
    await corrupt(s, bad.body.id, doc);

    const read = await call(`${s.url}/api/jobs/${bad.body.id}`, { key });
    expect(read.status).toBe(500);
    expect(errorCode(read)).toBe('internal_error');
    const del = await call(`${s.url}/api/jobs/${bad.body.id}`, { key, method: 'DELETE' });
    expect(errorCode(del)).toBe('internal_error');

    const other = await call(`${s.url}/api/jobs/${good.body.id}`, { key });
    expect(other.status).toBe(200);
    expect(Job.parse(other.body).id).toBe(good.body.id);
  });
});

describe('a corrupt key row (SQLite)', () => {
  it('is refused by name when read back, not handed on', async () => {
    const s = (server = await testServer({ database: undefined }));
    const { record } = await s.keys.create({ kind: 'user', userId: 'alice' });
    const db = new SqliteDatabase(join(s.dataDir, 'studio.db'));
    try {
      db.exec('PRAGMA busy_timeout = 5000');
      db.prepare("UPDATE api_keys SET hash = 'not a hash' WHERE id = ?").run(record.id);
    } finally {
      db.close();
    }
    await expect(s.keys.list()).rejects.toThrow(`the stored key ${record.id} is unreadable`);
  });
});
