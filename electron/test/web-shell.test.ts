// The web shell over a real socket: each browser is its own anonymous user (signed HttpOnly
// cookie), the bridge answers every bad request with { code, message } and never a stack,
// profiles and keys cannot be changed from a browser, media streams through /media, and the
// render API key appears in no response and no log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from '../../shared/contract/index.js';
import { SCENE_FONTS } from '../../shared/scene/fonts.js';
import { startWebShell, type WebShell } from '../web/server.js';
import { createKey, ROOT, startApi, tempDir, waitFor, webShellOptions, type RunningApi } from './helpers.js';

const logs: string[] = [];
const seen: string[] = []; // every header block and body a browser received
let api: RunningApi;
let shell: WebShell;
let serviceKey: string;

class Browser {
  cookie = '';
  async req(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(shell.url + path, { ...init, headers: { ...(init.headers as Record<string, string>), ...(this.cookie ? { cookie: this.cookie } : {}) } });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    seen.push(JSON.stringify([...res.headers]));
    return res;
  }
  async call(method: string, input?: unknown): Promise<{ status: number; body: { ok: boolean; value?: unknown; error?: { code: string; message: string } } }> {
    const res = await this.req(`/bridge/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) });
    const text = await res.text();
    seen.push(text);
    return { status: res.status, body: JSON.parse(text) };
  }
}

beforeAll(async () => {
  const apiData = tempDir('ps-api-');
  serviceKey = createKey(apiData, { service: true });
  api = await startApi(apiData);
  shell = await startWebShell(webShellOptions(api.url, serviceKey, { log: (l) => logs.push(l) }));
});

afterAll(async () => {
  await shell?.close();
  await api?.stop();
});

const request = { text: 'Hello from the browser.', templateId: 'newsroom', voiceId: 'en-US-Ava' };

describe('web shell', () => {
  it('serves the app with the bridge client first, a strict CSP and a signed HttpOnly user cookie', async () => {
    const b = new Browser();
    const res = await b.req('/');
    const html = await res.text();
    expect(html.indexOf('/bridge/client.js')).toBeLessThan(html.indexOf('assets/app.js'));
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('set-cookie')).toMatch(/^ps_uid=web-[0-9a-f]{24}\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax/);
    const js = await (await b.req('/bridge/client.js')).text();
    expect(js).toContain('/bridge/events');
    expect((await b.req('/assets/app.js')).headers.get('cache-control')).toContain('immutable');
    expect((await b.req('/../package.json')).status).toBe(404);
  });

  it('serves the preview fonts from resources/fonts, needing no user, revalidated by etag', async () => {
    const b = new Browser();
    for (const f of SCENE_FONTS) {
      const res = await b.req(`/fonts/${f.file}`);
      expect(res.status, f.file).toBe(200);
      expect(res.headers.get('content-type'), f.file).toBe(f.file.endsWith('.otf') ? 'font/otf' : 'font/ttf');
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(ROOT, 'resources/fonts', f.file))), f.file).toBe(true);
    }
    expect(b.cookie).toBe('');
    const first = await b.req('/fonts/DejaVuSans.ttf');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await b.req('/fonts/DejaVuSans.ttf', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    for (const path of ['/fonts/..%2F..%2Fpackage.json', '/fonts/../../package.json', '/fonts/%2E%2E%2F%2E%2E%2Fpackage.json', '/fonts/make-subsets.py', '/fonts/Noto-LICENSE.txt']) {
      const res = await b.req(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain('"name": "presenter-studio"');
    }
  });

  it('keeps every browser to its own jobs, and ignores a forged cookie', async () => {
    const alice = new Browser();
    const bob = new Browser();
    await alice.req('/');
    await bob.req('/');
    const sub = await alice.call('jobs.submit', { request });
    expect(sub.body.ok).toBe(true);
    const job = (sub.body.value as { job: Job }).job;
    const aliceList = (await alice.call('jobs.list', {})).body.value as { jobs: Job[] };
    expect(aliceList.jobs.map((j) => j.id)).toContain(job.id);
    expect(((await bob.call('jobs.list', {})).body.value as { jobs: Job[] }).jobs).toEqual([]);
    expect((await bob.call('jobs.get', { id: job.id })).body).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const mallory = new Browser();
    mallory.cookie = `${alice.cookie.split('.')[0]}.forged`;
    await mallory.req('/');
    expect(mallory.cookie.split('.')[0]).not.toBe(alice.cookie.split('.')[0]);
    expect(((await mallory.call('jobs.list', {})).body.value as { jobs: Job[] }).jobs).toEqual([]);
  });

  it('answers every bad request with { code, message }', async () => {
    const b = new Browser();
    const post = (path: string, body: string, type = 'application/json', extra: Record<string, string> = {}) =>
      b.req(path, { method: 'POST', headers: { 'content-type': type, ...extra }, body });
    const cases: [Response, number, string][] = [
      [await post('/bridge/jobs.list', '{not json'), 400, 'invalid_input'],
      [await post('/bridge/jobs.list', '[1,2]'), 400, 'invalid_input'],
      [await post('/bridge/jobs.list', '{}', 'text/plain'), 415, 'invalid_input'],
      [await post('/bridge/jobs.list', 'x'.repeat(7 * 1024 * 1024)), 413, 'invalid_input'],
      [await post('/bridge/jobs.list', '{}', 'application/json', { origin: 'https://evil.example' }), 403, 'forbidden'],
      [await post('/bridge/jobs.list', '{}', 'application/json', { origin: 'null' }), 403, 'forbidden'],
      [await post('/bridge/%E0%A4%A', '{}'), 200, 'not_found'],
      [await b.req('/bridge/jobs.list'), 405, 'invalid_input'],
      [await post('/bridge/no.such', '{}'), 200, 'not_found'],
      [await post('/bridge/jobs.submit', JSON.stringify({ input: { request: { ...request, params: { avatar: { scale: 'big' } } } } })), 200, 'invalid_input'],
      [await post('/bridge/jobs.list', JSON.stringify({ input: { limit: 1000 } })), 200, 'invalid_input'],
    ];
    for (const [res, status, code] of cases) {
      const text = await res.text();
      seen.push(text);
      expect(res.status).toBe(status);
      expect(JSON.parse(text)).toMatchObject({ ok: false, error: { code, message: expect.any(String) } });
      expect(text).not.toMatch(/\bat .+:\d+:\d+/); // no stack trace
    }
  });

  it('does not let a browser change profiles or keys, and shows the environment profile without its URL', async () => {
    const b = new Browser();
    expect((await b.call('profiles.save', { name: 'Mine', baseUrl: 'http://169.254.169.254', keyHeader: 'bearer' })).body).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect((await b.call('key.set', { profileId: 'env', key: 'stolen' })).body).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const profiles = (await b.call('profiles.list')).body.value as { profiles: { id: string; baseUrl: string | null }[] };
    expect(profiles.profiles).toEqual([{ id: 'env', name: 'Environment', kind: 'env', baseUrl: null, keyHeader: 'bearer' }]);
    expect((await b.call('key.status', { profileId: 'env' })).body.value).toMatchObject({ set: true, storage: 'environment' });
    expect((await b.call('app.info')).body.value).toMatchObject({ shell: 'web' });
  });

  it('streams job events over SSE and media through /media with byte ranges', async () => {
    const b = new Browser();
    await b.req('/');
    const ctl = new AbortController();
    const events = await b.req('/bridge/events', { signal: ctl.signal });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const reader = events.body!.getReader();
    let text = '';
    const sub = (await b.call('jobs.submit', { request: { ...request, text: 'Short one.' } })).body.value as { job: Job };
    const terminal = await waitFor(async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      const jobs = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!)).filter((e) => e.type === 'job' && e.job.id === sub.job.id);
      return jobs.find((e) => ['completed', 'failed', 'canceled'].includes(e.job.status))?.job as Job | undefined;
    }, 'a terminal job event', 120_000);
    ctl.abort();
    seen.push(text);
    if (terminal.status === 'completed') {
      expect(terminal.output!.videoUrl).toBe(`/media/env/jobs/${sub.job.id}/video`);
      const part = await b.req(terminal.output!.videoUrl, { headers: { range: 'bytes=0-1023' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toMatch(/^bytes 0-1023\/\d+$/);
      expect((await part.arrayBuffer()).byteLength).toBe(1024);
      const vtt = await b.req(terminal.output!.captionsUrl);
      expect(await vtt.text()).toMatch(/^WEBVTT/);
    } else {
      const res = await b.req(`/media/env/jobs/${sub.job.id}/video`);
      expect(res.status).toBe(404);
      seen.push(await res.text());
    }
    // Another browser cannot read this job's media.
    const other = new Browser();
    expect((await other.req(`/media/env/jobs/${sub.job.id}/video`)).status).toBe(404);
  });

  it('never sends the key to a browser or writes it to the log', () => {
    expect(seen.length).toBeGreaterThan(20);
    expect(seen.filter((s) => s.includes(serviceKey))).toEqual([]);
    expect(logs.filter((l) => l.includes(serviceKey))).toEqual([]);
    expect(logs.some((l) => l.startsWith('POST /bridge/jobs.submit 200'))).toBe(true);
  });
});
