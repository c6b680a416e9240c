// Uploads through the web shell over real sockets: the browser's body streams through the shell
// to the real render API under the user's id, with progress on the event stream, the shell's own
// size and per-user limits, cancel, and the asset's bytes back through /media. The key reaches no
// browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import type { StudioEvent, UploadStatus } from '../../shared/bridge/index.js';
import type { Asset, AssetList } from '../../shared/contract/index.js';
import { pdf, picture } from '../../server/test/fixtures/media.js';
import { startWebShell, type WebShell } from '../web/server.js';
import type { ShellLimits } from '../web/shell-limits.js';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiRequests, askApi, createKey, startApi, tempDir, waitFor, webShellOptions, type RunningApi } from './helpers.js';

const PNG = picture(800, 450, 'png');
let KEY: string;
const seen: string[] = [];
const shells: WebShell[] = [];
let api: RunningApi;

class Browser {
  cookie = '';
  readonly events: StudioEvent[] = [];
  constructor(readonly shell: WebShell) {}
  async req(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(this.shell.url + path, { ...init, headers: { ...(init.headers as Record<string, string>), ...(this.cookie ? { cookie: this.cookie } : {}) } });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    seen.push(JSON.stringify([...res.headers]));
    return res;
  }
  async json<T>(res: Response): Promise<T> {
    const text = await res.text();
    seen.push(text);
    return JSON.parse(text) as T;
  }
  call<T>(method: string, input?: unknown) {
    return this.req(`/bridge/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input }) }).then((r) => this.json<{ ok: boolean; value: T; error: { code: string; message: string } }>(r));
  }
  upload(name: string, body: Buffer, headers: Record<string, string> = {}) {
    return this.req('/bridge/upload', { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'x-file-name': encodeURIComponent(name), ...headers }, body: new Uint8Array(body) });
  }
  /** Listens on the event stream as the page does. */
  async listen(): Promise<void> {
    const res = await this.req('/bridge/events');
    const reader = res.body!.getReader();
    let buf = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buf += Buffer.from(value!).toString();
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (block.startsWith('data: ')) this.events.push(JSON.parse(block.slice(6)) as StudioEvent);
        }
      }
    })();
  }
  uploadEvents(id: string) {
    return this.events.flatMap((e) => (e.type === 'upload' && e.upload.uploadId === id ? [e.upload] : []));
  }
}

async function shellOn(url: string, limits: Partial<ShellLimits> = {}): Promise<WebShell> {
  const s = await startWebShell(webShellOptions(url, KEY, { limits }));
  shells.push(s);
  return s;
}

beforeAll(async () => {
  const apiData = tempDir('ps-api-');
  KEY = createKey(apiData, { service: true });
  api = await startApi(apiData, 0, ['--log-level', 'info']);
}, 60_000);
/** What the API keeps for this web-shell user (the id in the user's cookie). */
const keptFor = async (b: Browser): Promise<Asset[]> => (await askApi<AssetList>(api.url, KEY, '/api/assets?limit=100', { userId: userOf(b) })).body.assets;
const userOf = (b: Browser) => b.cookie.split('=')[1]!.split('.')[0]!;
afterAll(async () => {
  await Promise.all(shells.map((s) => s.close()));
  await api.stop();
  expect(seen.join('\n')).not.toContain(KEY);
});

describe('uploads through the web shell', () => {
  it('stream the file to the API as this user, with progress events, and its bytes come back through /media', async () => {
    const b = new Browser(await shellOn(api.url));
    await b.req('/');
    await b.listen();
    const id = 'up_browser_chosen_id_1';
    const res = await b.upload('Team photo.png', PNG, { 'x-upload-id': id });
    expect(res.status).toBe(200);
    const { ok, value } = await b.json<{ ok: boolean; value: UploadStatus }>(res);
    expect(ok).toBe(true);
    expect(value).toMatchObject({ uploadId: id, name: 'Team photo.png', state: 'done', sentBytes: PNG.length, sizeBytes: PNG.length });
    expect(value.asset!.contentUrl).toMatch(/^\/media\/[^/]+\/assets\/ast_\w+\/content$/);
    // The API keeps it for this user (the shell's service key names them), typed from the name.
    expect((await keptFor(b)).find((a) => a.id === value.asset!.id)).toMatchObject({ name: 'Team photo.png', mediaType: 'image/png', sizeBytes: PNG.length });
    expect((await askApi<AssetList>(api.url, KEY, '/api/assets', { userId: 'someone-else' })).body.assets).toEqual([]);
    const stored = await fetch(`${api.url}/api/assets/${value.asset!.id}/content`, { headers: { authorization: `Bearer ${KEY}`, 'x-user-id': userOf(b) } });
    expect(Buffer.from(await stored.arrayBuffer()).equals(PNG)).toBe(true);
    await waitFor(() => b.uploadEvents(id).some((u) => u.state === 'done'), 'the done event');
    expect(b.uploadEvents(id)[0]).toMatchObject({ state: 'uploading', sentBytes: 0 });

    const content = await b.req(value.asset!.contentUrl);
    expect(content.status).toBe(200);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await content.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await b.req(value.asset!.thumbnailUrl)).status).toBe(200);
    const list = await b.call<{ assets: { id: string; contentUrl: string }[] }>('assets.list');
    expect(list.value.assets[0]).toMatchObject({ id: value.asset!.id, contentUrl: value.asset!.contentUrl });
    // A browser never names a file of the machine the shell runs on.
    expect((await b.call('assets.uploadPath', { path: '/etc/hostname' })).error.code).toBe('unsupported');
    expect((await b.call('assets.pick')).error.code).toBe('unsupported');
  });

  it('refuse, before the API sees anything: over the shell size limit, too many, no name, another origin', async () => {
    const b = new Browser(await shellOn(api.url, { uploadMaxBytes: 100_000, uploadsPerUserPerHour: 2 }));
    await b.req('/');
    const before = apiRequests(api, 'POST', '/api/assets').length;
    const big = await b.upload('big.png', Buffer.concat([PNG, Buffer.alloc(100_000)]));
    expect(big.status).toBe(413);
    expect((await b.json<{ error: { code: string; message: string } }>(big)).error).toEqual({ code: 'payload_too_large', message: '"big.png" is over the 98 KiB limit of this studio' });
    expect((await b.req('/bridge/upload', { method: 'POST', body: new Uint8Array(PNG.subarray(0, 10)) })).status).toBe(400);
    expect((await b.upload('x.png', PNG.subarray(0, 10), { origin: 'https://evil.example' })).status).toBe(403);
    // A request after them is in the API's log: had they sent anything, it would be there first.
    const lists = apiRequests(api, 'GET', '/api/assets').length;
    expect((await b.call('assets.list')).ok).toBe(true);
    await waitFor(() => apiRequests(api, 'GET', '/api/assets').length > lists, 'the list request in the API log');
    expect(apiRequests(api, 'POST', '/api/assets').length).toBe(before);
    const small = picture(40, 30, 'png');
    expect((await b.upload('a.png', small)).status).toBe(200);
    expect((await b.upload('b.png', small)).status).toBe(200);
    const third = await b.upload('c.png', small);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('an API refusal comes back with its message; a cancel ends the upload on both sides', async () => {
    const b = new Browser(await shellOn(api.url));
    await b.req('/');
    await b.listen();
    const liar = await b.json<{ value: UploadStatus }>(await b.upload('notes.png', Buffer.from('plain text')));
    expect(liar.value).toMatchObject({ state: 'failed', error: { code: 'unsupported_media_type', message: 'this .png is really a text file, not image/png' } });

    // The browser sends the first MiB of 12 and holds the rest: the upload is under way for as
    // long as the test needs (the real API reads whatever arrives at once).
    const id = 'up_to_be_canceled_01';
    const aborts = api.log.filter((l) => l.includes('upload aborted by the client')).length;
    const size = 12 * 1024 * 1024;
    const url = new URL(`${b.shell.url}/bridge/upload`);
    const sending = httpRequest(url, { method: 'POST', headers: { cookie: b.cookie, 'content-type': 'application/octet-stream', 'content-length': String(size), 'x-file-name': 'clip.mp4', 'x-upload-id': id } });
    const answered = new Promise<string>((resolve, reject) => {
      sending.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      });
      sending.on('error', reject);
    });
    sending.write(Buffer.concat([Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]), Buffer.alloc(1024 * 1024 - 8, 2)]));
    try {
      await waitFor(() => b.uploadEvents(id).some((u) => u.sentBytes > 0), 'bytes to flow');
      expect((await b.call('assets.cancelUpload', { uploadId: id })).ok).toBe(true);
      seen.push(await answered);
      expect((JSON.parse(seen.at(-1)!) as { value: UploadStatus }).value).toMatchObject({ uploadId: id, state: 'canceled', asset: null });
    } finally {
      sending.destroy();
    }
    await waitFor(() => api.log.filter((l) => l.includes('upload aborted by the client')).length > aborts, 'the API to see the upload end');
    expect((await keptFor(b)).filter((a) => a.name === 'clip.mp4')).toEqual([]);
  });
});

describe('a slide deck through the web shell', () => {
  it('is received whole, converted by LibreOffice, and uploaded as a PDF', async () => {
    // A stand-in for soffice (LibreOffice is not installed here), found through SOFFICE_PATH: it
    // "converts" by copying what it is given, so the deck sent is a real PDF the real API takes.
    const bin = tempDir();
    const soffice = join(bin, 'soffice');
    writeFileSync(soffice, '#!/bin/sh\nprev=""; for a in "$@"; do [ "$prev" = "--outdir" ] && out="$a"; prev="$a"; last="$a"; done\ncp "$last" "$out/converted.pdf"\n');
    chmodSync(soffice, 0o755);
    const saved = process.env.SOFFICE_PATH;
    process.env.SOFFICE_PATH = soffice;
    try {
      const b = new Browser(await shellOn(api.url));
      await b.req('/');
      const deck = pdf(2);
      const { value } = await b.json<{ value: UploadStatus }>(await b.upload('Pitch.pptx', deck));
      expect(value).toMatchObject({ state: 'done', name: 'Pitch.pdf', asset: { kind: 'document', mediaType: 'application/pdf' } });
      const onApi = (await keptFor(b)).find((a) => a.id === value.asset!.id);
      expect(onApi).toMatchObject({ name: 'Pitch.pdf', pages: 2, sizeBytes: deck.length });
      const stored = await fetch(`${api.url}/api/assets/${value.asset!.id}/content`, { headers: { authorization: `Bearer ${KEY}`, 'x-user-id': userOf(b) } });
      expect(Buffer.from(await stored.arrayBuffer()).equals(deck)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.SOFFICE_PATH;
      else process.env.SOFFICE_PATH = saved;
    }
  });
});
