// The web shell's own guards, over a real socket against a real render API: only its own host
// names are answered (DNS rebinding), limits that dropping the cookie cannot bypass (identities
// per address, shell-wide creates per minute and active jobs), the cookie's Secure/__Host- only
// when the shell is told it is behind a TLS proxy, exact JSON content types, and caps on open
// event streams (idle streams keep their heartbeats).
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer, type TestServer } from '../../server/test/helpers.js';
import { startWebShell, type WebShell, type WebShellOptions } from '../web/server.js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { webShellOptions } from './helpers.js';
import { blankScene, DOCUMENT_VERSION } from '../../shared/contract/index.js';

let api: TestServer;
let serviceKey: string;
const shells: WebShell[] = [];

beforeAll(async () => {
  api = await testServer({ limits: { createsPerMinute: 10_000 }, concurrency: 0 }); // nothing renders: jobs stay queued
  serviceKey = await api.serviceKey();
});
afterAll(async () => {
  await Promise.all(shells.map((s) => s.close()));
  await api?.stop();
});

async function shell(extra: Partial<WebShellOptions> = {}): Promise<WebShell> {
  const s = await startWebShell(webShellOptions(api.url, serviceKey, extra));
  shells.push(s);
  return s;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (fetch cannot set Host); `stream: true` resolves at the headers. */
function raw(base: string, path: string, o: { method?: string; headers?: Record<string, string>; body?: string; stream?: boolean } = {}): Promise<Answer & { close(): void; next(): Promise<string> }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path, method: o.method ?? 'GET', headers: o.headers ?? {} }, (res) => {
      const chunks: string[] = [];
      let waiter: ((s: string) => void) | null = null;
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (waiter) {
          const w = waiter;
          waiter = null;
          w(c);
        } else chunks.push(c);
      });
      const answer = (body: string) => ({
        status: res.statusCode!,
        headers: res.headers,
        body,
        close: () => req.destroy(),
        next: () => (chunks.length ? Promise.resolve(chunks.shift()!) : new Promise<string>((r) => (waiter = r))),
      });
      if (o.stream && res.headers['content-type']?.startsWith('text/event-stream')) resolve(answer(''));
      else res.on('end', () => resolve(answer(chunks.join(''))));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const cookieOf = (a: Answer) => String(a.headers['set-cookie'] ?? '').split(';')[0]!;
const bridge = (base: string, method: string, input: unknown, headers: Record<string, string> = {}) =>
  raw(base, `/bridge/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ input }) });
const request = { text: 'Hello from the browser.', templateId: 'newsroom', voiceId: 'en-US-Ava' };

/** A one-scene draft as drafts.save takes it. */
const document = (name: string, text: string) => ({
  version: DOCUMENT_VERSION, name, templateId: 'newsroom', voiceId: 'en-US-Ava', params: {}, placements: {}, presenterId: null, scenes: [{ ...blankScene(text), id: 's_1' }],
});

describe('web shell host names (DNS rebinding)', () => {
  it('answers only its own host names, before any handler runs', async () => {
    const s = await shell({ allowedHosts: ['studio.example.com'] });
    const port = new URL(s.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'studio.example.com', `STUDIO.example.com:${port}`]) {
      expect((await raw(s.url, '/', { headers: { host } })).status, host).toBe(200);
    }
    for (const host of [`evil.example:${port}`, 'studio.example.com.evil.example', 'localhost.evil.example', '127.0.0.1.nip.io']) {
      const a = await raw(s.url, '/bridge/jobs.list', { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{}' });
      expect(a.status, host).toBe(421);
      expect(JSON.parse(a.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(a.headers['set-cookie'], host).toBeUndefined(); // no identity minted either
    }
  });
});

describe('web shell limits that do not depend on the cookie', () => {
  it('gives one client address at most N new identities an hour; known users and built files are not affected', async () => {
    const s = await shell({ limits: { identitiesPerAddressPerHour: 3 } });
    const first = await raw(s.url, '/');
    const cookie = cookieOf(first);
    for (let i = 0; i < 2; i++) expect((await raw(s.url, '/')).status).toBe(200);
    const refused = await bridge(s.url, 'jobs.list', {});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 'rate_limited', retryAfterSeconds: expect.any(Number) } });
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await raw(s.url, '/assets/app.js')).status).toBe(200);
    const known = await bridge(s.url, 'jobs.list', {}, { cookie });
    expect(known.status).toBe(200);
    expect(JSON.parse(known.body).ok).toBe(true);
  });

  it('caps creates per minute for the whole shell, whoever sends them', async () => {
    const s = await shell({ limits: { createsPerMinute: 2 } });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await bridge(s.url, 'jobs.submit', { request })); // three cookieless "users"
    expect(answers.slice(0, 2).map((a) => JSON.parse(a.body).ok)).toEqual([true, true]);
    expect(answers[2]!.status).toBe(429);
    expect(answers[2]!.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(answers[2]!.body)).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
  });

  it('caps the jobs active through the shell, and counts a job no more once it has finished', async () => {
    const s = await shell({ limits: { activeJobs: 2 } });
    const made: { cookie: string; id: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const a = await bridge(s.url, 'jobs.submit', { request });
      made.push({ cookie: cookieOf(a), id: JSON.parse(a.body).value.job.id });
    }
    const refused = await bridge(s.url, 'jobs.submit', { request });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 'quota_exceeded' } });
    const canceled = await bridge(s.url, 'jobs.cancel', { id: made[0]!.id }, { cookie: made[0]!.cookie });
    expect(JSON.parse(canceled.body), canceled.body).toMatchObject({ ok: true, value: { status: 'canceled' } });
    expect(JSON.parse((await bridge(s.url, 'jobs.submit', { request })).body).ok).toBe(true);
  });
});

describe('web shell cookie and content type', () => {
  it('ignores X-Forwarded-Proto unless told it is behind a proxy; then the cookie is Secure with the __Host- prefix', async () => {
    const direct = await shell();
    const plain = String((await raw(direct.url, '/', { headers: { 'x-forwarded-proto': 'https' } })).headers['set-cookie']);
    expect(plain).toMatch(/^ps_uid=/);
    expect(plain).not.toMatch(/Secure/i);

    const proxied = await shell({ trustProxy: true });
    const first = await raw(proxied.url, '/', { headers: { 'x-forwarded-proto': 'https' } });
    const header = String(first.headers['set-cookie']);
    expect(header).toMatch(/^__Host-ps_uid=web-[0-9a-f]{24}\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    expect(header).not.toMatch(/Domain=/i);
    // The browser sends it back: the same user, no new cookie.
    const again = await bridge(proxied.url, 'jobs.list', {}, { cookie: cookieOf(first), 'x-forwarded-proto': 'https' });
    expect(again.status).toBe(200);
    expect(again.headers['set-cookie']).toBeUndefined();
    // Plain HTTP through the proxy: no Secure.
    expect(String((await raw(proxied.url, '/', { headers: { 'x-forwarded-proto': 'http' } })).headers['set-cookie'])).not.toMatch(/Secure/);
  });

  it('takes bridge calls only as application/json exactly (parameters allowed)', async () => {
    const s = await shell();
    const post = (type: string) => raw(s.url, '/bridge/jobs.list', { method: 'POST', headers: { 'content-type': type }, body: '{}' });
    for (const type of ['application/json-evil', 'application/jsonp', 'application/json+x', 'text/plain']) expect((await post(type)).status, type).toBe(415);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) expect((await post(type)).status, type).toBe(200);
  });
});

describe('web shell event streams', () => {
  it('caps open streams per user and in total (429 past it), frees a slot on close, and heartbeats an idle stream', async () => {
    const s = await shell({ limits: { eventStreamsPerUser: 2, eventStreams: 3 }, heartbeatMs: 100 });
    const alice = cookieOf(await raw(s.url, '/'));
    const bob = cookieOf(await raw(s.url, '/'));
    const carol = cookieOf(await raw(s.url, '/'));
    const open = (cookie: string) => raw(s.url, '/bridge/events', { headers: { cookie }, stream: true });
    const a1 = await open(alice);
    const a2 = await open(alice);
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const a3 = await open(alice);
    expect(a3.status).toBe(429);
    expect(a3.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(a3.body)).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    const b1 = await open(bob);
    expect(b1.status).toBe(200);
    expect((await open(carol)).status).toBe(429); // three open in total
    // Idle: nothing happens for this user, yet heartbeats keep arriving.
    let seen = '';
    while (!/: heartbeat/.test(seen)) seen += await b1.next();
    a1.close();
    await new Promise((r) => setTimeout(r, 100));
    const c1 = await open(carol);
    expect(c1.status).toBe(200);
    for (const x of [a2, b1, c1]) x.close();
  });
});

describe('web shell limits on what a CSV or drafts can make', () => {
  it('counts the rows of a CSV as its parser reads them: a CR-only file is held to the create limit', async () => {
    const s = await shell({ limits: { createsPerMinute: 5 } });
    const csv = ['text,template,voice', ...Array.from({ length: 20 }, (_, i) => `Row ${i},newsroom,en-US-Ava`)].join('\r');
    const a = await bridge(s.url, 'jobs.importCsv', { csv, mode: 'jobs' });
    expect(a.status, a.body).toBe(429);
    expect(JSON.parse(a.body)).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    const listed = JSON.parse((await bridge(s.url, 'jobs.list', {}, { cookie: cookieOf(a) })).body);
    expect(listed.value.jobs).toHaveLength(0);
  });

  it('says a batch larger than a limit can never pass as one, rather than "try again in 30 s"', async () => {
    const s = await shell({ limits: { activeJobs: 5, createsPerMinute: 100 } });
    const csv = ['text,template,voice', ...Array.from({ length: 19 }, (_, i) => `Row ${i},newsroom,en-US-Ava`)].join('\n');
    const a = await bridge(s.url, 'jobs.importCsv', { csv, mode: 'jobs' });
    expect(a.status, a.body).toBe(429);
    expect(a.headers['retry-after']).toBeUndefined();
    const { error } = JSON.parse(a.body);
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(error.message).toMatch(/19 renders at once.*at most 5 .*at a time/);
    const perMinute = await shell({ limits: { activeJobs: 100, createsPerMinute: 5 } });
    const b = JSON.parse((await bridge(perMinute.url, 'jobs.importCsv', { csv, mode: 'jobs' })).body);
    expect(b.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/19 renders at once.*at most 5 a minute/) });
  });

  it('holds each user and the whole shell to a number of drafts; changing a draft is never refused', async () => {
    const s = await shell({ limits: { draftsPerUser: 3, drafts: 5 } });
    const draft = (n: number, text = 'Hi') => document(`Draft ${n}`, text);
    const first = await bridge(s.url, 'drafts.save', draft(0));
    const alice = cookieOf(first);
    for (let i = 1; i < 3; i++) expect(JSON.parse((await bridge(s.url, 'drafts.save', draft(i), { cookie: alice })).body).ok).toBe(true);
    const refused = await bridge(s.url, 'drafts.save', draft(3), { cookie: alice });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ ok: false, error: { code: 'quota_exceeded', message: expect.stringContaining('at most 3 drafts') } });
    const csv = await bridge(s.url, 'jobs.importCsv', { csv: 'text,template,voice\nOne,newsroom,en-US-Ava', mode: 'drafts' }, { cookie: alice });
    expect(csv.status).toBe(429);
    const id = JSON.parse(first.body).value.id as string;
    expect(JSON.parse((await bridge(s.url, 'drafts.save', { ...draft(0, 'Changed'), id }, { cookie: alice })).body).ok).toBe(true);

    const bob = await bridge(s.url, 'drafts.save', draft(10));
    expect(JSON.parse(bob.body).ok).toBe(true);
    expect(JSON.parse((await bridge(s.url, 'drafts.save', draft(11), { cookie: cookieOf(bob) })).body).ok).toBe(true);
    const full = await bridge(s.url, 'drafts.save', draft(12), { cookie: cookieOf(bob) });
    expect(full.status).toBe(429);
    expect(JSON.parse(full.body)).toMatchObject({ ok: false, error: { code: 'quota_exceeded' } });
    // A draft removed frees its place.
    expect(JSON.parse((await bridge(s.url, 'drafts.remove', { id }, { cookie: alice })).body).ok).toBe(true);
    expect(JSON.parse((await bridge(s.url, 'drafts.save', draft(12), { cookie: cookieOf(bob) })).body).ok).toBe(true);
  });

  it('removes the data of an anonymous user who has not come back for a while', async () => {
    const day = 24 * 60 * 60_000;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    // The default ages (30 minutes idle, 30 days of absence) on a clock the test moves.
    const o = webShellOptions(api.url, serviceKey, { now: () => clock });
    const s = await startWebShell(o);
    shells.push(s);
    const a = await bridge(s.url, 'drafts.save', document('Left behind', 'Hi'));
    expect(JSON.parse(a.body).ok).toBe(true);
    const users = join(o.dataDir, 'users');
    const kept = await bridge(s.url, 'drafts.save', document('Still here', 'Hi'));
    const keeper = cookieOf(kept);
    expect(readdirSync(users)).toHaveLength(2);

    clock += 20 * day;
    await bridge(s.url, 'drafts.list', {}, { cookie: keeper }); // this one comes back
    await s.sweep(); // the first one's services close as idle: its data stays
    expect(readdirSync(users)).toHaveLength(2);

    clock += 11 * day; // 31 days since the first one was there, 11 since the keeper was
    await s.sweep();
    expect(readdirSync(users)).toHaveLength(1);
    expect(JSON.parse((await bridge(s.url, 'drafts.list', {}, { cookie: keeper })).body).value).toHaveLength(1);
    expect(JSON.parse((await bridge(s.url, 'drafts.list', {}, { cookie: cookieOf(a) })).body).value).toHaveLength(0);
  });
});
