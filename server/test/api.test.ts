// Black-box tests of the render API over a real socket: every endpoint and error code of
// ../../../shared/design/render-api.md, without an engine (jobs fail engine_unavailable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, Job, JobList, LIMITS, TemplateList, VoiceList } from '../../shared/contract/index.js';
import { call, errorCode, testServer, validRequest, waitFor } from './helpers.js';
import type { TestServer } from './helpers.js';

let s: TestServer;
let alice: string;
let bob: string;
let service: string;

beforeAll(async () => {
  s = await testServer();
  alice = await s.userKey('alice');
  bob = await s.userKey('bob');
  service = await s.serviceKey();
});
afterAll(() => s.stop());

const post = (key: string, json: unknown, headers: Record<string, string> = {}) =>
  call(`${s.url}/api/render`, { key, json, headers });

describe('health and keys', () => {
  it('answers health without a key', async () => {
    const r = await call(`${s.url}/api/health`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', version: expect.any(String), extensions: ['title', 'assets', 'scenes', 'output', 'brand', 'sound', 'presenters'] });
  });

  it('refuses a missing, unknown, malformed or revoked key with 401', async () => {
    expect(errorCode(await call(`${s.url}/api/jobs`))).toBe('unauthorized');
    expect(errorCode(await call(`${s.url}/api/jobs`, { key: 'psk_aaaaaaaaaaaa_' + 'A'.repeat(43) }))).toBe('unauthorized');
    expect(errorCode(await call(`${s.url}/api/jobs`, { key: alice.slice(0, -1) + (alice.endsWith('A') ? 'B' : 'A') }))).toBe('unauthorized');
    expect(errorCode(await call(`${s.url}/api/jobs`, { headers: { authorization: 'Basic abc' } }))).toBe('unauthorized');
    const { key, record } = await s.keys.create({ kind: 'user', userId: 'carol' });
    expect((await call(`${s.url}/api/jobs`, { key })).status).toBe(200);
    await s.keys.revoke(record.id);
    const r = await call(`${s.url}/api/jobs`, { key });
    expect(r.status).toBe(401);
    expect(errorCode(r)).toBe('unauthorized');
  });

  // The SQLite key store remembers verified keys until another connection changes the database.
  it.skipIf(process.env.TEST_STORE === 'postgres')('refuses a key revoked from another process (the CLI) at once', async () => {
    const { openKeyStore } = await import('../start.js');
    const { key, record } = await s.keys.create({ kind: 'user', userId: 'frank' });
    expect((await call(`${s.url}/api/jobs`, { key })).status).toBe(200);
    const cli = openKeyStore(s.dataDir);
    await cli.keys.revoke(record.id);
    cli.close();
    expect(errorCode(await call(`${s.url}/api/jobs`, { key }))).toBe('unauthorized');
  });

  it('accepts the key in X-API-Key too', async () => {
    const r = await call(`${s.url}/api/jobs`, { headers: { 'x-api-key': alice } });
    expect(r.status).toBe(200);
  });

  it('stores key hashes only', async () => {
    const list = await s.keys.list();
    // The secret is everything after psk_<id>_ (it may itself hold '_').
    expect(JSON.stringify(list)).not.toContain(alice.split('_').slice(2).join('_'));
  });
});

describe('POST /api/render', () => {
  it('point 8: keeps the optional title (extension) on the job, in the list, and refuses a bad one', async () => {
    const r = await post(alice, { ...validRequest, title: '  Quarterly update  ' });
    expect(r.status).toBe(202);
    const job = Job.parse(r.body);
    expect(job.title).toBe('Quarterly update');
    expect(Job.parse((await call(`${s.url}/api/jobs/${job.id}`, { key: alice })).body).title).toBe('Quarterly update');
    const listed = JobList.parse((await call(`${s.url}/api/jobs?limit=100`, { key: alice })).body).jobs.find((j) => j.id === job.id);
    expect(listed?.title).toBe('Quarterly update');
    expect(Job.parse((await post(alice, validRequest)).body).title).toBeNull();
    for (const title of ['', '   ', 'x'.repeat(LIMITS.titleMaxChars + 1), 42]) {
      const bad = await post(alice, { ...validRequest, title });
      expect(bad.status).toBe(422);
      expect(ErrorBody.parse(bad.body).error.details?.[0]?.path).toBe('title');
    }
    // U+0000, which PostgreSQL text columns refuse, is kept exactly like any other character.
    const nul = await post(alice, { ...validRequest, title: 'Q\u0000 update' });
    expect(nul.status).toBe(202);
    expect(Job.parse((await call(`${s.url}/api/jobs/${Job.parse(nul.body).id}`, { key: alice })).body).title).toBe('Q\u0000 update');
  });

  it('creates a queued job (202, Location) with params filled from the template', async () => {
    const r = await post(alice, { ...validRequest, templateId: 'classroom', params: { avatar: { x: 0.4 } } });
    expect(r.status).toBe(202);
    const job = Job.parse(r.body);
    expect(r.headers.get('location')).toBe(`/api/jobs/${job.id}`);
    expect(job.id).toMatch(/^job_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(job.status).toBe('queued');
    expect(job.params).toEqual({
      aspectRatio: '16:9', avatar: { scale: 0.7, x: 0.4, y: 0.6 }, resolution: '720p', captions: 'burned', captionPosition: 'auto',
    });
    expect(job.progress).toBe(0);
  });

  it('fails every job with engine_unavailable while there is no engine (never completes without a video)', async () => {
    const r = await post(alice, validRequest);
    const job = await waitFor(async () => {
      const j = (await call(`${s.url}/api/jobs/${r.body.id}`, { key: alice })).body as Job;
      return j.status === 'failed' ? j : null;
    });
    expect(job.error).toEqual({ code: 'engine_unavailable', message: expect.any(String) });
    expect(job.output).toBeNull();
    expect(job.finishedAt).not.toBeNull();
  });

  it('accepts both voice id forms and records the canonical one', async () => {
    const digits = await post(alice, { ...validRequest, voiceId: '201' });
    expect(digits.status).toBe(202);
    expect(digits.body.voiceId).toBe('de-DE-Katja');
    const named = await post(alice, { ...validRequest, voiceId: 'fr-FR-Henri' });
    expect(named.body.voiceId).toBe('fr-FR-Henri');
  });

  it('names every invalid field, unknown fields included (422)', async () => {
    const r = await post(alice, {
      text: '   ',
      templateID: 'newsroom',
      voiceId: 'en-US-Ava',
      params: { aspectRatio: '2:1', avatar: { scale: '0.5', x: 2, extra: 1 } },
    });
    expect(r.status).toBe(422);
    expect(errorCode(r)).toBe('validation_failed');
    const paths = r.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['text', 'templateId', 'templateID', 'params.aspectRatio', 'params.avatar.scale', 'params.avatar.x', 'params.avatar.extra']),
    );
    const scale = r.body.error.details.find((d: { path: string }) => d.path === 'params.avatar.scale');
    expect(scale.message).toBe('must be a number');
  });

  it('checks text rules: letters or digits, at most 5000 characters after trimming', async () => {
    expect((await post(alice, { ...validRequest, text: '!!! ...' })).status).toBe(422);
    expect((await post(alice, { ...validRequest, text: `  ${'a'.repeat(5000)}  ` })).status).toBe(202);
    const long = await post(alice, { ...validRequest, text: 'a'.repeat(5001) });
    expect(long.body.error.details[0]).toEqual({ path: 'text', message: 'must be at most 5000 characters' });
  });

  it('refuses an unknown template or voice, and an aspect ratio the template lacks (422 naming the field)', async () => {
    const t = await post(alice, { ...validRequest, templateId: 'nope' });
    expect(t.body.error.details).toEqual([{ path: 'templateId', message: expect.stringContaining('unknown template') }]);
    const v = await post(alice, { ...validRequest, voiceId: '999' });
    expect(v.body.error.details).toEqual([{ path: 'voiceId', message: expect.stringContaining('unknown voice') }]);
    const ar = await post(alice, { ...validRequest, templateId: 'social-short', params: { aspectRatio: '16:9' } });
    expect(ar.status).toBe(422);
    expect(ar.body.error.details).toEqual([{ path: 'params.aspectRatio', message: expect.stringContaining('9:16') }]);
  });

  it('answers bad JSON with 400 invalid_json, a wrong content type with 415, a big body with 413', async () => {
    const bad = await call(`${s.url}/api/render`, { key: alice, body: '{"text": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(errorCode(bad)).toBe('invalid_json');
    const empty = await call(`${s.url}/api/render`, { key: alice, body: '', headers: { 'content-type': 'application/json' } });
    expect(errorCode(empty)).toBe('invalid_json');
    const text = await call(`${s.url}/api/render`, { key: alice, body: JSON.stringify(validRequest), headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(errorCode(text)).toBe('unsupported_media_type');
    const form = await call(`${s.url}/api/render`, { key: alice, body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(errorCode(form)).toBe('unsupported_media_type');
    const none = await call(`${s.url}/api/render`, { key: alice, method: 'POST' });
    expect(errorCode(none)).toBe('unsupported_media_type');
    const big = await post(alice, { ...validRequest, text: 'a'.repeat(LIMITS.bodyMaxBytes) });
    expect(big.status).toBe(413);
    expect(errorCode(big)).toBe('payload_too_large');
  });

  it('replays an Idempotency-Key with the same body (200, Idempotent-Replayed) and refuses another body (409)', async () => {
    const key = `idem-${Date.now()}`;
    const first = await post(alice, validRequest, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    // Same JSON value with other key order and spacing is the same body.
    const again = await call(`${s.url}/api/render`, {
      key: alice,
      body: `{ "voiceId": "en-US-Ava", "templateId": "newsroom", "text": "${validRequest.text}" }`,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const other = await post(alice, { ...validRequest, text: 'Something else' }, { 'idempotency-key': key });
    expect(other.status).toBe(409);
    expect(errorCode(other)).toBe('idempotency_conflict');
    // Keys are per user: bob's same key is a new job.
    const bobs = await post(bob, validRequest, { 'idempotency-key': key });
    expect(bobs.status).toBe(202);
    expect(bobs.body.id).not.toBe(first.body.id);
  });

  it('makes exactly one job for concurrent requests with the same Idempotency-Key', async () => {
    const key = `idem-race-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(alice, validRequest, { 'idempotency-key': key })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 202]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it('does not store a key whose request failed validation', async () => {
    const key = `idem-invalid-${Date.now()}`;
    expect((await post(alice, { ...validRequest, templateId: 'nope' }, { 'idempotency-key': key })).status).toBe(422);
    expect((await post(alice, validRequest, { 'idempotency-key': key })).status).toBe(202);
  });

  it('refuses an over-long Idempotency-Key (422)', async () => {
    const r = await post(alice, validRequest, { 'idempotency-key': 'k'.repeat(256) });
    expect(r.status).toBe(422);
    expect(r.body.error.details[0].path).toBe('Idempotency-Key');
  });
});

describe('users', () => {
  it('keeps users apart both ways: lists, reads, cancel, delete, media', async () => {
    const a = (await post(alice, validRequest)).body as Job;
    const b = (await post(bob, validRequest)).body as Job;
    for (const [key, other] of [[alice, b], [bob, a]] as const) {
      for (const [method, path] of [
        ['GET', ''],
        ['POST', '/cancel'],
        ['DELETE', ''],
        ['GET', '/video'],
        ['GET', '/captions.vtt'],
        ['GET', '/thumbnail.jpg'],
      ] as const) {
        const r = await call(`${s.url}/api/jobs/${other.id}${path}`, { key, method });
        expect(r.status, `${method} ${path}`).toBe(404);
        expect(errorCode(r)).toBe('not_found');
      }
      const list = JobList.parse((await call(`${s.url}/api/jobs?limit=100`, { key })).body);
      expect(list.jobs.map((j) => j.id)).not.toContain(other.id);
    }
  });

  it('lets a service key act for the user in X-User-Id, and requires it (400 user_required)', async () => {
    const none = await call(`${s.url}/api/jobs`, { key: service });
    expect(none.status).toBe(400);
    expect(errorCode(none)).toBe('user_required');
    const bad = await call(`${s.url}/api/jobs`, { key: service, headers: { 'x-user-id': 'has space' } });
    expect(errorCode(bad)).toBe('user_required');
    expect(errorCode(await post(service, validRequest))).toBe('user_required');
    const created = await post(service, validRequest, { 'x-user-id': 'alice' });
    expect(created.status).toBe(202);
    const mine = JobList.parse((await call(`${s.url}/api/jobs?limit=100`, { key: alice })).body);
    expect(mine.jobs.map((j) => j.id)).toContain(created.body.id);
    const asBob = await call(`${s.url}/api/jobs/${created.body.id}`, { key: service, headers: { 'x-user-id': 'bob' } });
    expect(asBob.status).toBe(404);
    // Catalogs are not user-scoped: a service key needs no X-User-Id there.
    expect((await call(`${s.url}/api/templates`, { key: service })).status).toBe(200);
  });

  it('forbids a user key naming someone else in X-User-Id (403), allows its own id', async () => {
    const r = await call(`${s.url}/api/jobs`, { key: alice, headers: { 'x-user-id': 'bob' } });
    expect(r.status).toBe(403);
    expect(errorCode(r)).toBe('forbidden');
    expect((await call(`${s.url}/api/jobs`, { key: alice, headers: { 'x-user-id': 'alice' } })).status).toBe(200);
  });
});

describe('jobs', () => {
  it('cancels a terminal job with 409 invalid_transition and deletes only terminal jobs (204, then 404)', async () => {
    const job = (await post(alice, validRequest)).body as Job;
    await waitFor(async () => (await call(`${s.url}/api/jobs/${job.id}`, { key: alice })).body.status === 'failed');
    const cancel = await call(`${s.url}/api/jobs/${job.id}/cancel`, { key: alice, method: 'POST' });
    expect(cancel.status).toBe(409);
    expect(errorCode(cancel)).toBe('invalid_transition');
    const del = await call(`${s.url}/api/jobs/${job.id}`, { key: alice, method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(errorCode(await call(`${s.url}/api/jobs/${job.id}`, { key: alice }))).toBe('not_found');
    expect(errorCode(await call(`${s.url}/api/jobs/${job.id}`, { key: alice, method: 'DELETE' }))).toBe('not_found');
  });

  it('answers 404 not_ready for the files of a job that is not completed', async () => {
    const job = (await post(alice, validRequest)).body as Job;
    for (const f of ['video', 'captions.vtt', 'thumbnail.jpg']) {
      const r = await call(`${s.url}/api/jobs/${job.id}/${f}`, { key: alice });
      expect(r.status).toBe(404);
      expect(errorCode(r)).toBe('not_ready');
    }
  });

  it('lists newest first with counts, status filter, q and limit', async () => {
    const dave = await s.userKey('dave');
    const texts = ['Alpha launch notes', 'Beta UPDATE for the team', 'Gamma update', 'Straße und Übung'];
    const ids: string[] = [];
    for (const text of texts) ids.push((await post(dave, { ...validRequest, text })).body.id);
    await waitFor(async () => (await call(`${s.url}/api/jobs`, { key: dave })).body.counts.failed === 4);
    const all = JobList.parse((await call(`${s.url}/api/jobs`, { key: dave })).body);
    expect(all.jobs.map((j) => j.id)).toEqual([...ids].reverse());
    expect(all.counts).toEqual({ queued: 0, rendering: 0, completed: 0, failed: 4, canceled: 0 });
    expect(all.nextCursor).toBeNull();
    const q = JobList.parse((await call(`${s.url}/api/jobs?q=update`, { key: dave })).body);
    expect(q.jobs.map((j) => j.text)).toEqual(['Gamma update', 'Beta UPDATE for the team']);
    const uni = JobList.parse((await call(`${s.url}/api/jobs?q=${encodeURIComponent('ÜBUNG')}`, { key: dave })).body);
    expect(uni.jobs).toHaveLength(1);
    const st = JobList.parse((await call(`${s.url}/api/jobs?status=queued,canceled`, { key: dave })).body);
    expect(st.jobs).toEqual([]);
    const failed = JobList.parse((await call(`${s.url}/api/jobs?status=failed&limit=3`, { key: dave })).body);
    expect(failed.jobs).toHaveLength(3);
    expect(failed.nextCursor).not.toBeNull();
    const rest = JobList.parse((await call(`${s.url}/api/jobs?status=failed&limit=3&cursor=${failed.nextCursor}`, { key: dave })).body);
    expect(rest.jobs.map((j) => j.id)).toEqual([ids[0]]);
    expect(rest.nextCursor).toBeNull();
  });

  it('shows every change in the next listing of the same page', async () => {
    const gina = await s.userKey('gina');
    const page = async () => JobList.parse((await call(`${s.url}/api/jobs?limit=5`, { key: gina })).body);
    expect((await page()).jobs).toEqual([]);
    const job = (await post(gina, validRequest)).body as Job;
    expect((await page()).jobs.map((j) => j.id)).toEqual([job.id]);
    await waitFor(async () => (await page()).jobs[0]?.status === 'failed');
    expect((await page()).counts.failed).toBe(1);
    await call(`${s.url}/api/jobs/${job.id}`, { key: gina, method: 'DELETE' });
    expect((await page()).jobs).toEqual([]);
  });

  it('answers bad query values with 422 naming the parameter', async () => {
    for (const [query, path] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
      ['status=done', 'status'],
      ['cursor=notacursor', 'cursor'],
      ['sort=asc', 'sort'],
      ['limit=1&limit=2', 'limit'],
    ]) {
      const r = await call(`${s.url}/api/jobs?${query}`, { key: alice });
      expect(r.status, query).toBe(422);
      expect(errorCode(r)).toBe('validation_failed');
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('pages through every job exactly once while new jobs arrive', async () => {
    const erin = await s.userKey('erin');
    const before: string[] = [];
    for (let i = 0; i < 25; i++) before.push((await post(erin, { ...validRequest, text: `job ${i}` })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let n = 0;
    // New jobs keep arriving while the pages are read, between and during requests.
    let arriving = true;
    const writer = (async () => {
      while (arriving) await post(erin, { ...validRequest, text: `late ${n++}` });
    })();
    do {
      const page = JobList.parse(
        (await call(`${s.url}/api/jobs?limit=4${cursor ? `&cursor=${cursor}` : ''}`, { key: erin })).body,
      );
      seen.push(...page.jobs.filter((j) => !j.text.startsWith('late')).map((j) => j.id));
      expect(page.jobs.every((j) => !j.text.startsWith('late')) || cursor === null).toBe(true);
      cursor = page.nextCursor;
    } while (cursor);
    arriving = false;
    await writer;
    expect(n).toBeGreaterThan(0);
    expect(seen).toEqual([...before].reverse());
  });
});

describe('routes and methods', () => {
  it('answers unknown routes with 404 not_found and a wrong method with 405 and Allow', async () => {
    for (const path of ['/', '/api', '/api/nope', '/api/jobs/x/y/z', '/favicon.ico']) {
      const r = await call(`${s.url}${path}`, { key: alice });
      expect(r.status, path).toBe(404);
      expect(errorCode(r)).toBe('not_found');
    }
    const put = await call(`${s.url}/api/render`, { key: alice, method: 'PUT' });
    expect(put.status).toBe(405);
    expect(errorCode(put)).toBe('method_not_allowed');
    expect(put.headers.get('allow')).toBe('POST');
    expect((await call(`${s.url}/api/jobs`, { key: alice, method: 'DELETE' })).status).toBe(405);
  });

  it('answers malformed HTTP and oversized headers with the error body', async () => {
    const { connect } = await import('node:net');
    const raw = (payload: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(s.port, '127.0.0.1', () => socket.write(payload));
        let out = '';
        socket.on('data', (d) => (out += d.toString()));
        socket.on('close', () => resolve(out));
        socket.on('error', () => resolve(out));
      });
    for (const payload of ['NOT HTTP AT ALL\r\n\r\n', `GET /api/jobs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]) {
      const answer = await raw(payload);
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(ErrorBody.parse(body).error.code).toBe('bad_request');
    }
    expect((await call(`${s.url}/api/health`)).status).toBe(200);
  });

  it('answers a malformed URL with the error body', async () => {
    const r = await call(`${s.url}/api/jobs/%E0%A4%A`, { key: alice });
    expect(r.status).toBe(400);
    expect(ErrorBody.safeParse(r.body).success).toBe(true);
  });
});

describe('catalogs', () => {
  it('lists at least 6 templates with presenter, defaults and thumbnailUrl', async () => {
    const r = await call(`${s.url}/api/templates`, { key: alice });
    const { templates } = TemplateList.parse(r.body);
    expect(templates.length).toBeGreaterThanOrEqual(6);
    for (const t of templates) {
      expect(t.aspectRatios).toContain(t.defaults.aspectRatio);
      expect(t.thumbnailUrl).toBe(`/api/templates/${t.id}/thumbnail.jpg`);
    }
  });

  it('lists at least 8 voices in 4 locales, both id forms, no internal fields', async () => {
    const r = await call(`${s.url}/api/voices`, { key: alice });
    const { voices } = VoiceList.parse(r.body);
    expect(voices.length).toBeGreaterThanOrEqual(8);
    expect(new Set(voices.map((v) => v.locale)).size).toBeGreaterThanOrEqual(4);
    for (const v of voices) {
      expect(v.id).toMatch(/^[a-z]{2,3}-[A-Z]{2}-[A-Za-z]+$/);
      expect(v.aliases?.[0]).toMatch(/^[0-9]+$/);
    }
    expect(r.text).not.toMatch(/"(espeak|pico|flite|piper|kokoro)":/); // the engine blocks stay on the server
    expect(r.text).not.toContain('numericId');
  });

  it('answers 503 unavailable for thumbnails and samples while there is no engine, 404 for unknown ids', async () => {
    const thumb = await call(`${s.url}/api/templates/newsroom/thumbnail.jpg`, { key: alice });
    expect(thumb.status).toBe(503);
    expect(errorCode(thumb)).toBe('unavailable');
    expect(errorCode(await call(`${s.url}/api/voices/101/sample`, { key: alice }))).toBe('unavailable');
    expect(errorCode(await call(`${s.url}/api/voices/xx-XX-Nobody/sample`, { key: alice }))).toBe('not_found');
    expect(errorCode(await call(`${s.url}/api/templates/nope/thumbnail.jpg`, { key: alice }))).toBe('not_found');
    expect(errorCode(await call(`${s.url}/api/templates`))).toBe('unauthorized');
  });
});

describe('limits', () => {
  it('limits creates per user per minute (429 rate_limited with Retry-After), per user', async () => {
    const t = await testServer({ limits: { createsPerMinute: 3 } });
    try {
      const k1 = await t.userKey('u1');
      const k2 = await t.userKey('u2');
      for (let i = 0; i < 3; i++) expect((await call(`${t.url}/api/render`, { key: k1, json: validRequest })).status).toBe(202);
      const r = await call(`${t.url}/api/render`, { key: k1, json: validRequest });
      expect(r.status).toBe(429);
      expect(errorCode(r)).toBe('rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await call(`${t.url}/api/render`, { key: k2, json: validRequest })).status).toBe(202);
    } finally {
      await t.stop();
    }
  });

  it('never lets concurrent creates pass the active-job limit', async () => {
    const { createTestEngine } = await import('./fixtures/test-engine.js');
    const engine = createTestEngine();
    const t = await testServer({ limits: { activeJobsPerUser: 3 }, engine, concurrency: 1 });
    try {
      const k = await t.userKey('racer');
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => call(`${t.url}/api/render`, { key: k, json: { ...validRequest, text: 'race [hold]' } })),
      );
      expect(answers.filter((a) => a.status === 202)).toHaveLength(3);
      expect(answers.filter((a) => a.status === 429).map(errorCode)).toEqual(Array(5).fill('quota_exceeded'));
    } finally {
      engine.release();
      await t.stop();
    }
  });

  it('limits active jobs per user (429 quota_exceeded with Retry-After)', async () => {
    const { createTestEngine } = await import('./fixtures/test-engine.js');
    const engine = createTestEngine();
    const t = await testServer({ limits: { activeJobsPerUser: 2 }, engine, concurrency: 1 });
    try {
      const k = await t.userKey('u1');
      const hold = { ...validRequest, text: 'wait [hold]' };
      expect((await call(`${t.url}/api/render`, { key: k, json: hold })).status).toBe(202);
      expect((await call(`${t.url}/api/render`, { key: k, json: hold })).status).toBe(202);
      const r = await call(`${t.url}/api/render`, { key: k, json: hold });
      expect(r.status).toBe(429);
      expect(errorCode(r)).toBe('quota_exceeded');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      engine.release();
    } finally {
      engine.release();
      await t.stop();
    }
  });
});
