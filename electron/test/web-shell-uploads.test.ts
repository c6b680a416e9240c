// Uploads through the web shell over real sockets: the browser's body streams through the shell
// to the render API (stand-in for the asset routes until they are merged) under the user's id,
// with progress on the event stream, the shell's own size and per-user limits, cancel, and the
// asset's bytes back through /media. The key reaches no browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioEvent, UploadStatus } from '../../shared/bridge/index.js';
import { startWebShell, type WebShell } from '../web/server.js';
import type { ShellLimits } from '../web/shell-limits.js';
import { startAssetApi, type AssetApiStandIn } from './asset-api-stand-in.js';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, waitFor, webShellOptions } from './helpers.js';

const KEY = 'psk_web_uploads_service_key_42';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200_000, 9)]);
const seen: string[] = [];
const shells: WebShell[] = [];
let api: AssetApiStandIn;

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
  api = await startAssetApi({ key: KEY });
});
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
    const got = api.received.at(-1)!;
    expect(got.bytes.equals(PNG)).toBe(true);
    expect(got.mediaType).toBe('image/png'); // from the name, not the browser's guess
    expect(got.headers['x-user-id']).toBe(b.cookie.split('=')[1]!.split('.')[0]);
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
    const before = api.requests.filter((r) => r.method === 'POST').length;
    const big = await b.upload('big.png', PNG);
    expect(big.status).toBe(413);
    expect((await b.json<{ error: { code: string; message: string } }>(big)).error).toEqual({ code: 'payload_too_large', message: '"big.png" is over the 98 KiB limit of this studio' });
    expect((await b.req('/bridge/upload', { method: 'POST', body: new Uint8Array(PNG.subarray(0, 10)) })).status).toBe(400);
    expect((await b.upload('x.png', PNG.subarray(0, 10), { origin: 'https://evil.example' })).status).toBe(403);
    expect(api.requests.filter((r) => r.method === 'POST').length).toBe(before);
    const small = PNG.subarray(0, 1000);
    expect((await b.upload('a.png', small)).status).toBe(200);
    expect((await b.upload('b.png', small)).status).toBe(200);
    const third = await b.upload('c.png', small);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('an API refusal comes back with its message; a cancel ends the upload on both sides', async () => {
    const slow = await startAssetApi({ key: KEY, stallAfterBytes: 256 * 1024, maxBytes: 64 * 1024 * 1024 });
    try {
      const b = new Browser(await shellOn(slow.url));
      await b.req('/');
      await b.listen();
      const liar = await b.json<{ value: UploadStatus }>(await b.upload('notes.png', Buffer.from('plain text')));
      expect(liar.value).toMatchObject({ state: 'failed', error: { code: 'unsupported_media_type', message: 'this .png is really a text file' } });

      const id = 'up_to_be_canceled_01';
      const sending = b.upload('clip.mp4', Buffer.alloc(12 * 1024 * 1024, 2), { 'x-upload-id': id });
      await waitFor(() => b.uploadEvents(id).some((u) => u.sentBytes > 0), 'bytes to flow');
      expect((await b.call('assets.cancelUpload', { uploadId: id })).ok).toBe(true);
      const res = await sending;
      expect((await b.json<{ value: UploadStatus }>(res)).value).toMatchObject({ uploadId: id, state: 'canceled', asset: null });
      await waitFor(() => slow.aborted.includes('clip.mp4'), 'the API to see the upload end');
      expect(slow.assets.size).toBe(0);
    } finally {
      await slow.stop();
    }
  });
});

describe('a slide deck through the web shell', () => {
  it('is received whole, converted by LibreOffice, and uploaded as a PDF', async () => {
    // A stand-in for soffice (LibreOffice is not installed here), found through SOFFICE_PATH.
    const bin = tempDir();
    const soffice = join(bin, 'soffice');
    writeFileSync(soffice, '#!/bin/sh\nprev=""; for a in "$@"; do [ "$prev" = "--outdir" ] && out="$a"; prev="$a"; last="$a"; done\ncp "$last" "$out/converted.pdf"\n');
    chmodSync(soffice, 0o755);
    const saved = process.env.SOFFICE_PATH;
    process.env.SOFFICE_PATH = soffice;
    try {
      const b = new Browser(await shellOn(api.url));
      await b.req('/');
      const deck = Buffer.concat([Buffer.from('%PDF-1.4 '), Buffer.alloc(50_000, 4)]); // what the stand-in "converts" is copied as is
      const { value } = await b.json<{ value: UploadStatus }>(await b.upload('Pitch.pptx', deck));
      expect(value).toMatchObject({ state: 'done', name: 'Pitch.pdf', asset: { kind: 'document', mediaType: 'application/pdf' } });
      expect(api.received.at(-1)!.bytes.equals(deck)).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.SOFFICE_PATH;
      else process.env.SOFFICE_PATH = saved;
    }
  });
});
