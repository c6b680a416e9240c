// HTTP details a fuzzer and a security review probe, over a real socket: unknown methods (405 with
// Allow), invalid and unsatisfiable byte ranges (RFC 9110), over-long ids (404 like any unknown
// id), `__proto__` and duplicate JSON keys, caps on open event streams (idle ones keep their
// heartbeats), and health checks logged at debug level, not info.
import { z } from 'zod';
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../shared/contract/index.js';
import { createTestEngine } from './fixtures/test-engine.js';
import { call, errorCode, testServer, validRequest, waitFor } from './helpers.js';
import type { TestServer } from './helpers.js';
import { openEvents } from './sse-client.js';

/** A pino log line: any JSON object. */
const LogLine = z.record(z.string(), z.unknown());

let s: TestServer;
let key: string;
let done: Job;

beforeAll(async () => {
  s = await testServer({ engine: createTestEngine(), concurrency: 1, heartbeatMs: 100, eventStreams: { perUser: 2, total: 3 } });
  key = await s.userKey('details');
  const created = await call(`${s.url}/api/render`, { key, json: validRequest });
  done = await waitFor(async () => {
    const j = (await call(`${s.url}/api/jobs/${created.body.id}`, { key })).body as Job;
    return j.status === 'completed' ? j : null;
  }, 30_000);
});
afterAll(() => s.stop());

/** A request written byte for byte (methods fetch refuses to send). */
function rawHttp(text: string): Promise<{ status: number; head: string; body: string }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.write(text));
    let out = '';
    socket.on('data', (d) => (out += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body });
    });
  });
}

describe('methods', () => {
  it('answers a method nobody here knows with 405 and Allow, not 400', async () => {
    for (const [method, path, allow] of [
      ['FOO', '/api/jobs', 'GET, HEAD'],
      ['BREW', `/api/jobs/${done.id}`, 'GET, HEAD, DELETE'],
      ['PROPFIND', '/api/render', 'POST'],
      ['CONNECT', '/api/jobs', 'GET, HEAD'],
    ]) {
      const r = await rawHttp(`${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
      expect(r.status, method).toBe(405);
      expect(r.head, method).toMatch(new RegExp(`\\r\\nallow: ${allow}\\r\\n`, 'i'));
      expect(JSON.parse(r.body).error.code, method).toBe('method_not_allowed');
    }
  });
});

describe('byte ranges (RFC 9110)', () => {
  const video = (range: string) => call(`${s.url}/api/jobs/${done.id}/video`, { key, headers: { range } });
  it('ignores an invalid range and sends the whole file; keeps 416 for an unsatisfiable one', async () => {
    const size = done.output!.sizeBytes;
    const invalid = await video('bytes=5-1');
    expect(invalid.status).toBe(200);
    expect(Number(invalid.headers.get('content-length'))).toBe(size);
    const ok = await video('bytes=1-5');
    expect(ok.status).toBe(206);
    expect(ok.headers.get('content-range')).toBe(`bytes 1-5/${size}`);
    const past = await video(`bytes=${size}-`);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${size}`);
    expect(errorCode(past)).toBe('range_not_satisfiable');
  });
});

describe('ids and bodies', () => {
  it('answers an id over the length limit with 404, like any unknown id', async () => {
    for (const id of ['job_x', 'a'.repeat(150), 'a'.repeat(250), 'job_' + '0'.repeat(1000)]) {
      for (const [method, path] of [['GET', `/api/jobs/${id}`], ['DELETE', `/api/jobs/${id}`], ['POST', `/api/jobs/${id}/cancel`], ['GET', `/api/jobs/${id}/video`]] as const) {
        const r = await call(`${s.url}${path}`, { key, method });
        expect(r.status, `${method} ${path.slice(0, 40)}`).toBe(404);
        expect(errorCode(r)).toBe('not_found');
      }
    }
  });

  it('answers a __proto__ key with 422 naming the field', async () => {
    for (const [body, path] of [
      [`{"__proto__": {"x": 1}, "text": "Hi", "templateId": "newsroom", "voiceId": "en-US-Ava"}`, '__proto__'],
      [`{"text": "Hi", "templateId": "newsroom", "voiceId": "en-US-Ava", "params": {"avatar": {"\\u005f_proto__": {}}}}`, 'params.avatar.__proto__'],
    ]) {
      const r = await call(`${s.url}/api/render`, { key, body, headers: { 'content-type': 'application/json' } });
      expect(r.status).toBe(422);
      expect(errorCode(r)).toBe('validation_failed');
      expect(r.body.error.details).toEqual([{ path, message: expect.any(String) }]);
    }
  });

  it('answers duplicate JSON keys with 400', async () => {
    for (const body of [
      '{"text": "Hi", "text": "There", "templateId": "newsroom", "voiceId": "en-US-Ava"}',
      '{"text": "Hi", "templateId": "newsroom", "voiceId": "en-US-Ava", "params": {"avatar": {"x": 0.1, "x": 0.9}}}',
      '{"text": "Hi", "templateId": "newsroom", "voiceId": "en-US-Ava", "te\\u0078t": "escaped twin"}',
    ]) {
      const r = await call(`${s.url}/api/render`, { key, body, headers: { 'content-type': 'application/json' } });
      expect(r.status, body).toBe(400);
      expect(errorCode(r)).toBe('invalid_json');
    }
    // Same key names in different objects, and strings that look like keys, are fine.
    const fine = await call(`${s.url}/api/render`, {
      key,
      body: '{"text": "x: \\"text\\", {\\"a\\": 1}", "templateId": "newsroom", "voiceId": "en-US-Ava", "params": {"avatar": {"x": 0.5}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(fine.status, fine.text).toBe(202);
  });
});

describe('event streams', () => {
  it('caps open streams per user and in total with 429, frees slots on close, and heartbeats idle streams', async () => {
    const other = await s.userKey('details-2');
    const third = await s.userKey('details-3');
    const auth = (k: string) => ({ authorization: `Bearer ${k}` });
    const a1 = await openEvents(s.url, auth(key));
    const a2 = await openEvents(s.url, auth(key));
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const a3 = await openEvents(s.url, auth(key));
    expect(a3.status).toBe(429);
    const refused = await call(`${s.url}/api/events`, { key });
    expect(errorCode(refused)).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const b1 = await openEvents(s.url, auth(other));
    expect(b1.status).toBe(200);
    expect((await openEvents(s.url, auth(third))).status).toBe(429); // three open in all
    // Idle streams (no job changes) still get heartbeats.
    await waitFor(async () => b1.comments.filter((c) => c === 'heartbeat').length >= 2, 5000);
    a1.close();
    const c1 = await waitFor(async () => {
      const c = await openEvents(s.url, auth(third));
      if (c.status === 200) return c;
      c.close();
      return null;
    }, 5000);
    for (const x of [a2, b1, c1]) x.close();
  });
});

describe('logs', () => {
  it('logs health checks at debug level, not info; other requests still at info', async () => {
    const lines: Record<string, unknown>[] = [];
    const collect = (level: string) => {
      const stream = new PassThrough();
      stream.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean).map((l) => ({ ...LogLine.parse(JSON.parse(l)), at: level }))));
      return stream;
    };
    for (const level of ['info', 'debug']) {
      const t = await testServer({ logLevel: level, logStream: collect(level) });
      try {
        for (let i = 0; i < 3; i++) expect((await call(`${t.url}/api/health`)).status).toBe(200);
        await call(`${t.url}/api/templates`);
      } finally {
        await t.stop();
      }
    }
    const health = (l: Record<string, unknown>) => JSON.stringify(l).includes('/api/health') || l.msg === 'health check';
    expect(lines.filter((l) => l.at === 'info' && health(l))).toEqual([]);
    expect(lines.some((l) => l.at === 'info' && JSON.stringify(l).includes('/api/templates'))).toBe(true);
    const debug = lines.filter((l) => l.at === 'debug' && l.msg === 'health check');
    expect(debug).toHaveLength(3);
    expect(debug.every((l) => l.level === 20)).toBe(true);
  });
});
