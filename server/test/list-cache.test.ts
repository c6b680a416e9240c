// The job-list page cache: spellings of one query share an entry, and the pages it holds stay
// within its byte bound however many different queries a client sends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JobListQuery } from '../../shared/contract/index.js';
import { ListCache, pageKey } from '../http/list-cache.js';
import { SqliteJobStore } from '../jobs/sqlite-store.js';
import { call, testServer, validRequest, waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ps-list-cache-'));
const store = SqliteJobStore.open(join(dir, 'studio.db'));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const keyOf = (query: Record<string, string>) => pageKey(JobListQuery.parse(query));

describe('page keys', () => {
  it('gives every spelling of one query the same key', () => {
    expect(keyOf({ limit: '0100' })).toBe(keyOf({ limit: '100' }));
    expect(keyOf({ limit: '00020' })).toBe(keyOf({}));
    expect(keyOf({ status: 'failed,queued' })).toBe(keyOf({ status: 'queued, failed,queued' }));
    expect(keyOf({ q: 'a', limit: '5' })).not.toBe(keyOf({ q: 'b', limit: '5' }));
  });
});

describe('the byte bound', () => {
  it('holds however many different pages are stored', () => {
    const maxBytes = 4 * 1024 * 1024;
    const cache = new ListCache(store, maxBytes);
    const page = '{"jobs":[' + `"${'字'.repeat(115_000)}"` + ']}'; // ~230 KB held, like 100 jobs of long CJK scripts
    for (let i = 0; i < 2000; i++) {
      cache.set(`user${i % 7}`, keyOf({ q: `spelling ${i}` }), page, cache.generation(`user${i % 7}`));
      expect(cache.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.bytes).toBeGreaterThan(maxBytes / 2); // it still caches
    expect(cache.get(`user${1999 % 7}`, keyOf({ q: 'spelling 1999' }))).toBe(page); // the newest page stays
    expect(cache.get('user0', keyOf({ q: 'spelling 0' }))).toBeUndefined();
    cache.invalidate(`user${1999 % 7}`);
    expect(cache.get(`user${1999 % 7}`, keyOf({ q: 'spelling 1999' }))).toBeUndefined();
    cache.close();
    expect(cache.bytes).toBe(0);
  });
});

describe('over HTTP', () => {
  it('answers another spelling of a cached query from the same entry, fresh after a change', async () => {
    const s = await testServer();
    try {
      const key = await s.userKey('cache');
      const first = await call(`${s.url}/api/render`, { key, json: validRequest });
      // Without an engine the job fails at once; compare pages once nothing changes any more.
      await waitFor(async () => (await call(`${s.url}/api/jobs/${first.body.id}`, { key })).body.status === 'failed');
      const a = await call(`${s.url}/api/jobs?limit=0100`, { key });
      const b = await call(`${s.url}/api/jobs?limit=100`, { key });
      expect(a.status).toBe(200);
      expect(b.text).toBe(a.text);
      await call(`${s.url}/api/render`, { key, json: validRequest });
      const c = await call(`${s.url}/api/jobs?limit=00100`, { key });
      expect(c.body.jobs).toHaveLength(2);
    } finally {
      await s.stop();
    }
  });
});
