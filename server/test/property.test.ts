// Property test: random and malformed methods, paths, query strings, headers and bodies get
// only contract answers (never a 500, never a stack trace), the server stays up, and every
// job it accepted (202) is still there; and every request the published OpenAPI document calls
// valid (generated from its own schemas) is accepted.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ERROR_STATUS, ErrorBody } from '../../shared/contract/index.js';
import { testServer, validRequest } from './helpers.js';
import type { TestServer } from './helpers.js';
import { openApiDoc } from './openapi-doc.js';
import { arbitrary, matches } from './json-schema-arbitrary.js';

let s: TestServer;
let userKey: string;
let serviceKey: string;

beforeAll(async () => {
  s = await testServer({ limits: { createsPerMinute: 100_000 } });
  userKey = await s.userKey('prop-user');
  serviceKey = await s.serviceKey();
});
afterAll(() => s.stop());

const headerText = fc.string({ unit: fc.constantFrom(...'abcAZ09 -_.:@/;=,"é\t'.split('')), maxLength: 40 });
const segment = fc.oneof(
  fc.constantFrom('job_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'x', '..', '%2e%2e', '%00', '%E0%A4%A', 'newsroom', '101', 'en-US-Ava', ''),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.oneof(
  fc.constantFrom('/api/render', '/api/jobs', '/api/health', '/api/templates', '/api/voices', '/api/events', '/'),
  segment.map((id) => `/api/jobs/${id}`),
  fc.tuple(segment, fc.constantFrom('cancel', 'video', 'captions.vtt', 'thumbnail.jpg', 'x')).map(([id, f]) => `/api/jobs/${id}/${f}`),
  segment.map((id) => `/api/voices/${id}/sample`),
  segment.map((id) => `/api/templates/${id}/thumbnail.jpg`),
  fc.array(segment, { maxLength: 4 }).map((p) => `/${p.join('/')}`),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('limit', 'status', 'q', 'cursor', 'aspectRatio', 'x', 'limit[]', '__proto__'),
        fc.oneof(fc.constantFrom('0', '1', '100', '101', '-1', '1e2', 'queued,failed', 'done', ',', 'bad', '16:9'), fc.string({ maxLength: 20 })),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`),
  fc.string({ maxLength: 30 }).map((raw) => `?${raw.replace(/[#\s]/g, '')}`),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({
      text: fc.oneof(fc.string({ maxLength: 60 }), fc.integer(), fc.constant(null)),
      templateId: fc.oneof(fc.constantFrom('newsroom', 'social-short', 'nope'), fc.string({ maxLength: 10 })),
      voiceId: fc.oneof(fc.constantFrom('101', 'en-US-Ava', '999', 'de-DE-Katja'), fc.string({ maxLength: 10 })),
      params: fc.oneof(
        fc.constant(undefined),
        fc.record(
          {
            aspectRatio: fc.constantFrom('16:9', '9:16', '1:1', '2:1', 16),
            avatar: fc.record({ scale: fc.oneof(fc.double(), fc.string()), x: fc.double(), y: fc.double() }, { requiredKeys: [] }),
            extra: fc.anything(),
          },
          { requiredKeys: [] },
        ),
      ),
      junk: fc.anything(),
    }, { requiredKeys: [] })
    .map((v) => JSON.stringify(v)),
  fc.constant(JSON.stringify(validRequest)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('{"__proto__": {"x": 1}}', '{"constructor": {"prototype": {}}}', '[', '{}', 'null', '"str"', '1e999'),
);
const headers = fc.record(
  {
    auth: fc.constantFrom('user', 'service', 'none', 'garbage', 'x-api-key'),
    'content-type': fc.oneof(fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml', 'APPLICATION/JSON', ''), headerText),
    'x-user-id': fc.oneof(fc.constantFrom('prop-user', 'someone-else'), headerText),
    'idempotency-key': fc.oneof(fc.constantFrom('k1', 'k2'), headerText),
    range: fc.oneof(fc.constantFrom('bytes=0-1', 'bytes=-1', 'bytes=5-2', 'bytes=a-b', 'bytes=0-1,3-4'), headerText),
    accept: headerText,
  },
  { requiredKeys: ['auth'] },
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');

const STACK = /\bat \S+ \(|node:internal|\.ts:\d+|Error: /;

it('answers any request with a contract answer, stays up, loses no job', { timeout: 120_000 }, async () => {
  const accepted = new Set<string>();
  await fc.assert(
    fc.asyncProperty(method, path, query, headers, body, async (m, p, q, h, b) => {
      const { auth, ...rest } = h;
      const hdrs: Record<string, string> = {};
      for (const [k, v] of Object.entries(rest)) if (v !== undefined && v !== '') hdrs[k] = v;
      if (auth === 'user') hdrs.authorization = `Bearer ${userKey}`;
      if (auth === 'service') hdrs.authorization = `Bearer ${serviceKey}`;
      if (auth === 'garbage') hdrs.authorization = 'Bearer ' + 'x'.repeat(60);
      if (auth === 'x-api-key') hdrs['x-api-key'] = userKey;
      const withBody = b !== undefined && m !== 'GET' && m !== 'HEAD';
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`no answer within 5 s: ${m} ${p}${q} ${JSON.stringify(hdrs)}`)), 5000);
      const res = await fetch(`${s.url}${p}${q}`, { method: m, headers: hdrs, signal: controller.signal, ...(withBody ? { body: b } : {}) });
      if (res.status === 200 && res.headers.get('content-type')?.startsWith('text/event-stream')) {
        clearTimeout(timer);
        controller.abort(); // an event stream stays open by design
        return;
      }
      const text = await res.text();
      clearTimeout(timer);
      // 503 `unavailable` is the contract's answer for engine files while no engine exists.
      const allowed503 = res.status === 503 && (m === 'HEAD' || JSON.parse(text).error.code === 'unavailable');
      expect(res.status < 500 || allowed503, `${m} ${p}${q} → ${res.status} ${text.slice(0, 200)}`).toBe(true);
      expect(text).not.toMatch(STACK);
      if (res.status >= 400 && m !== 'HEAD') {
        const parsed = ErrorBody.safeParse(JSON.parse(text));
        expect(parsed.success, text).toBe(true);
        expect(ERROR_STATUS[parsed.data!.error.code]).toBe(res.status);
      }
      if (res.status === 202) accepted.add((JSON.parse(text) as { id: string }).id);
    }),
    { numRuns: 400, seed: Number(process.env.FC_SEED ?? Date.now() % 1_000_000) },
  );
  expect((await fetch(`${s.url}/api/health`)).status).toBe(200);
  for (const id of accepted) {
    const job = await s.store.get(id, null);
    expect(job, id).not.toBeNull();
  }
});

it('answers a service key and random X-User-Id values only with contract codes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 140 }), async (userId) => {
      // Header values travel without outer whitespace.
      const safe = userId.replace(/[^\x20-\x7e]/g, '').trim();
      const res = await fetch(`${s.url}/api/jobs`, { headers: { authorization: `Bearer ${serviceKey}`, 'x-user-id': safe } });
      const text = await res.text();
      if (/^[A-Za-z0-9._:@-]{1,128}$/.test(safe)) expect(res.status).toBe(200);
      else expect(JSON.parse(text).error.code).toBe('user_required');
    }),
    { numRuns: 100 },
  );
});

// Driven by the published document: every request docs/openapi.json calls valid is accepted.
const doc = openApiDoc;

/**
 * What no schema can know, left out of generated requests: fields that name one of the caller's
 * stored things (a scene's background, the music, the brand's logo and font assets, a presenter),
 * and a scene's template, which must support the video's aspect ratio.
 */
function withoutUnknowables(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return body;
  const { music: _m, brand: _b, presenterId: _p, ...b } = body as Record<string, unknown> & { scenes?: unknown };
  if (!Array.isArray(b.scenes)) return b;
  return { ...b, scenes: (b.scenes as Record<string, unknown>[]).map(({ background: _bg, templateId: _t, presenterId: _sp, ...rest }) => rest) };
}

it('accepts every render request the OpenAPI document calls valid (202, never 4xx/5xx)', { timeout: 120_000 }, async () => {
  const schema = doc.components.schemas.RenderRequest!;
  await fc.assert(
    fc.asyncProperty(arbitrary(schema).map(withoutUnknowables), async (body) => {
      expect(matches(schema, body)).toBe(true);
      const res = await fetch(`${s.url}/api/render`, {
        method: 'POST',
        headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      expect(res.status, `${JSON.stringify(body)} → ${text.slice(0, 300)}`).toBe(202);
    }),
    { numRuns: 300, seed: Number(process.env.FC_SEED ?? Date.now() % 1_000_000) },
  );
});

it('answers every job-list query and X-User-Id the document calls valid with 200', { timeout: 60_000 }, async () => {
  const params = doc.paths['/api/jobs']!.get!.parameters!;
  // The cursor is opaque (only a nextCursor from an earlier page is valid): not fuzzed.
  const query = params.filter((p) => p.in === 'query' && p.name !== 'cursor');
  const userId = params.find((p) => p.name === 'X-User-Id')!.schema;
  const queryArb = fc.record(Object.fromEntries(query.map((p) => [p.name, arbitrary(p.schema)])), { requiredKeys: [] });
  await fc.assert(
    fc.asyncProperty(queryArb, arbitrary(userId), async (q, user) => {
      const search = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
      const res = await fetch(`${s.url}/api/jobs?${search}`, { headers: { authorization: `Bearer ${serviceKey}`, 'x-user-id': String(user) } });
      const text = await res.text();
      expect(res.status, `?${search} as ${String(user)} → ${text.slice(0, 300)}`).toBe(200);
    }),
    { numRuns: 200, seed: Number(process.env.FC_SEED ?? Date.now() % 1_000_000) },
  );
});
