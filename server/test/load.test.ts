// Load: 500 concurrent creates from 10 users (limits raised for the test). Every accepted job
// is listed exactly once, for its own user only, and the counts add up.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JobList } from '../../shared/contract/index.js';
import type { Job } from '../../shared/contract/index.js';
import { call, testServer, validRequest } from './helpers.js';
import type { TestServer } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await testServer({ limits: { createsPerMinute: 1000, activeJobsPerUser: 1000 } });
});
afterAll(() => s.stop());

it('lists each of 500 concurrent creates from 10 users exactly once, for its own user only', { timeout: 60_000 }, async () => {
  const users = Array.from({ length: 10 }, (_, i) => `load-${i}`);
  const keys = await Promise.all(users.map((u) => s.userKey(u)));
  const created = await Promise.all(
    Array.from({ length: 500 }, async (_, i) => {
      const u = i % 10;
      const r = await call(`${s.url}/api/render`, { key: keys[u]!, json: { ...validRequest, text: `load ${i} for ${users[u]}` } });
      expect(r.status).toBe(202);
      return { user: u, id: (r.body as Job).id };
    }),
  );
  expect(new Set(created.map((c) => c.id)).size).toBe(500);
  for (let u = 0; u < 10; u++) {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await call(`${s.url}/api/jobs?limit=17${cursor ? `&cursor=${cursor}` : ''}`, { key: keys[u]! });
      const page = JobList.parse(r.body);
      seen.push(...page.jobs.map((j) => j.id));
      for (const j of page.jobs) expect(j.text.endsWith(`for ${users[u]}`)).toBe(true);
      cursor = page.nextCursor;
      if (!cursor) expect(Object.values(page.counts).reduce((a, b) => a + b, 0)).toBe(50);
    } while (cursor);
    const mine = created.filter((c) => c.user === u).map((c) => c.id);
    expect([...seen].sort()).toEqual([...mine].sort());
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort().reverse()); // newest first
  }
});
