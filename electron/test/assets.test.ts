// The media library through the privileged side, against the real render API (started once for
// the file, with small upload limits): uploads streamed from a file with progress and cancel, the
// API's refusals passed through as it said them, asset media through the app's own URLs, slide
// decks through LibreOffice, scene jobs naming assets, and an API without the extension.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, closeSync, existsSync, openSync, readdirSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { StudioEvent, UploadStatus } from '../../shared/bridge/index.js';
import type { Asset, AssetList, Job } from '../../shared/contract/index.js';
import { pdf, picture } from '../../server/test/fixtures/media.js';
import { dialogFilters, fileTypeOf } from '../services/asset-files.js';
import { dispatch } from '../services/dispatch.js';
import type { Studio } from '../services/studio.js';
import { apiRequests, askApi, createKey, remoteOnlyStudio, startApi, tempDir, waitFor, type RunningApi } from './helpers.js';

const PNG = picture(640, 360, 'png');
const DECK = pdf(2);
// Small limits, so a refusal needs no large file: 1 MiB per document, 40 MiB in all per user
// (and pictures up to 64 MiB, so a large one meets the quota first).
const API_ARGS = ['--log-level', 'info', '--concurrency', '1', '--asset-max-mib', 'document=1,image=64', '--asset-quota-mib', '40'];
let dataDir: string;
let KEY: string;
let api: RunningApi;
const studios: Studio[] = [];

async function call<T>(studio: Studio, method: string, input?: unknown): Promise<T> {
  const r = await dispatch(studio.handlers, method, input);
  if (!r.ok) throw Object.assign(new Error(`${method}: ${r.error.message}`), { bridge: r.error });
  return r.value as T;
}
const refusal = async (studio: Studio, method: string, input?: unknown) => {
  const r = await dispatch(studio.handlers, method, input);
  if (r.ok) throw new Error(`${method} was not refused`);
  return r.error;
};

async function studioOn(url: string, extra: Parameters<typeof remoteOnlyStudio>[2] = {}): Promise<{ studio: Studio; events: StudioEvent[]; dataDir: string }> {
  const dir = tempDir();
  const studio = await remoteOnlyStudio(dir, { timeoutMs: 10_000, retries: 0, backoffMs: 50 }, extra);
  studios.push(studio);
  const events: StudioEvent[] = [];
  studio.events.subscribe((e) => events.push(e));
  const p = await call<{ id: string }>(studio, 'profiles.save', { name: 'Team', baseUrl: url, keyHeader: 'bearer', key: KEY });
  await call(studio, 'profiles.select', { id: p.id });
  return { studio, events, dataDir: dir };
}

const finalOf = (events: StudioEvent[], uploadId: string) =>
  waitFor(() => events.find((e): e is Extract<StudioEvent, { type: 'upload' }> => e.type === 'upload' && e.upload.uploadId === uploadId && ['done', 'failed', 'canceled'].includes(e.upload.state))?.upload, `upload ${uploadId} to end`, 30_000);

function file(name: string, bytes: Buffer | string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}
/** A file of `size` bytes that starts with `head` (the rest a hole: nothing written to disk). */
function sparse(name: string, head: Buffer, size: number): string {
  const path = join(tempDir(), name);
  const fd = openSync(path, 'w');
  writeSync(fd, head);
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}
/** What the API itself keeps for this user. */
const kept = async (): Promise<Asset[]> => (await askApi<AssetList>(api.url, KEY, '/api/assets?limit=100')).body.assets;
/** A job straight from the API. */
const jobOnApi = async (id: string): Promise<Job> => (await askApi<Job>(api.url, KEY, `/api/jobs/${id}`)).body;
/** Renders are not what these tests are about: a job they made stops at once. */
const cancelOnApi = (id: string) => askApi(api.url, KEY, `/api/jobs/${id}/cancel`, { method: 'POST' });

beforeAll(async () => {
  dataDir = tempDir('ps-api-');
  KEY = createKey(dataDir, { user: 'creator' });
  api = await startApi(dataDir, 0, API_ARGS);
}, 60_000);
afterEach(async () => {
  await Promise.all(studios.splice(0).map((s) => s.close()));
});
afterAll(async () => api?.stop());

describe('uploads from a file', () => {
  it('stream the bytes with progress to the API, and the asset comes back with app-local URLs', async () => {
    const { studio, events } = await studioOn(api.url);
    const path = file('Team photo.png', PNG);
    const first = await call<UploadStatus>(studio, 'assets.uploadPath', { path });
    expect(first).toMatchObject({ name: 'Team photo.png', sizeBytes: PNG.length, state: 'uploading' });
    const done = await finalOf(events, first.uploadId);
    expect(done).toMatchObject({ state: 'done', sentBytes: PNG.length, error: null });
    // What the API kept: the same bytes, typed and named as the file.
    const onApi = (await askApi<Asset>(api.url, KEY, `/api/assets/${done.asset!.id}`)).body;
    expect(onApi).toMatchObject({ name: 'Team photo.png', mediaType: 'image/png', kind: 'image', sizeBytes: PNG.length, width: 640, height: 360 });
    const stored = await fetch(`${api.url}/api/assets/${done.asset!.id}/content`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(Buffer.from(await stored.arrayBuffer()).equals(PNG)).toBe(true);
    // The key goes in a header only, never in a URL (the API logs every URL it was asked for).
    await waitFor(() => apiRequests(api, 'POST', '/api/assets?name=Team').length > 0, 'the upload in the API log');
    expect(api.log.join('\n')).not.toContain(KEY);
    const asset = done.asset!;
    expect(asset.contentUrl).toMatch(/^studio-media:\/\/app\/[^/]+\/assets\/ast_\w+\/content$/);
    expect(asset.thumbnailUrl).toMatch(/\/assets\/ast_\w+\/thumbnail$/);
    // Progress went out as events between the first and the last, never backwards.
    const sent = events.flatMap((e) => (e.type === 'upload' && e.upload.uploadId === first.uploadId ? [e.upload.sentBytes] : []));
    expect(sent[0]).toBe(0);
    expect(sent.at(-1)).toBe(PNG.length);
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    expect((await call<UploadStatus[]>(studio, 'assets.uploads')).map((u) => [u.uploadId, u.state])).toContainEqual([first.uploadId, 'done']);

    // The app's URLs stream the API's bytes and thumbnail with the key added on this side.
    const rest = (u: string) => u.slice('studio-media://app/'.length);
    const content = await studio.openMedia(rest(asset.contentUrl), {});
    expect(content.status).toBe(200);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await content.arrayBuffer()).equals(PNG)).toBe(true);
    const thumb = await studio.openMedia(rest(asset.thumbnailUrl), {});
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await thumb.arrayBuffer()).subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect((await call<{ url: string }>(studio, 'media.assetUrl', { assetId: asset.id, kind: 'content' })).url).toBe(asset.contentUrl);

    const list = await call<AssetList>(studio, 'assets.list', { kind: 'image' });
    expect(list.assets.find((a) => a.id === asset.id)?.contentUrl).toBe(asset.contentUrl);
    expect((await call<{ name: string }>(studio, 'assets.get', { id: asset.id })).name).toBe('Team photo.png');
  });

  it('pass the API refusals through as it said them, and keep nothing', async () => {
    const { studio, events } = await studioOn(api.url);
    const liar = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('notes.png', 'just some text, not a picture') });
    expect((await finalOf(events, liar.uploadId)).error).toEqual({ code: 'unsupported_media_type', message: 'this .png is really a text file, not image/png' });
    const big = await call<UploadStatus>(studio, 'assets.uploadPath', { path: sparse('huge.pdf', DECK, 3 * 1024 * 1024) });
    const bigEnd = await finalOf(events, big.uploadId);
    expect(bigEnd).toMatchObject({ state: 'failed', error: { code: 'payload_too_large', message: 'over the 1 MiB limit for a document file' } });
    expect((await kept()).filter((a) => ['notes.png', 'huge.pdf'].includes(a.name))).toEqual([]);
  });

  it('a refusal the connection lost (reset while the body was still going) is asked for again, headers only', async () => {
    // A double: the real API refuses from the headers and closes at once, and only sometimes does
    // the reset beat its answer here. This one always resets the first request before answering,
    // and answers the same request again (headers only) with the real API's 413.
    const seenRequests: { bodyBytes: number }[] = [];
    const rude = createNetServer((socket) => {
      let head = '';
      const onData = (c: Buffer) => {
        head += c.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        socket.off('data', onData);
        const [line] = head.split('\r\n');
        if (line!.startsWith('GET /api/health')) {
          const body = JSON.stringify({ status: 'ok', version: '0.1.0', extensions: ['title', 'assets', 'scenes'] });
          return void socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
        }
        const request = { bodyBytes: head.length - head.indexOf('\r\n\r\n') - 4 };
        seenRequests.push(request);
        if (seenRequests.length === 1) return void socket.resetAndDestroy();
        socket.on('data', (more: Buffer) => (request.bodyBytes += more.length));
        const body = JSON.stringify({ error: { code: 'payload_too_large', message: 'over the 1 MiB limit for a document file', requestId: 'req_1' } });
        socket.end(`HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      };
      socket.on('data', onData);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => rude.listen(0, '127.0.0.1', r));
    try {
      const { studio, events } = await studioOn(`http://127.0.0.1:${(rude.address() as AddressInfo).port}`);
      const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: sparse('huge.pdf', DECK, 3 * 1024 * 1024) });
      expect((await finalOf(events, up.uploadId)).error).toEqual({ code: 'payload_too_large', message: 'over the 1 MiB limit for a document file' });
      expect(seenRequests).toHaveLength(2);
      expect(seenRequests[1]!.bodyBytes).toBe(0);
    } finally {
      await new Promise((r) => rude.close(r));
    }
  });

  it('a full library (429 quota_exceeded) says so, with the API message', async () => {
    const { studio, events } = await studioOn(api.url);
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: sparse('wide.png', PNG, 41 * 1024 * 1024) });
    const end = await finalOf(events, up.uploadId);
    expect(end.error!.code).toBe('quota_exceeded');
    expect(end.error!.message).toMatch(/^your files take [\d.]+ [KM]iB of your 40 MiB; this one does not fit — delete some first$/);
    expect((await kept()).filter((a) => a.name === 'wide.png')).toEqual([]);
  });

  it('refuse a file the library does not take before sending anything', async () => {
    const { studio } = await studioOn(api.url);
    const before = apiRequests(api, 'POST', '/api/assets').length;
    const r = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('script.docx', 'x') });
    expect(r).toMatchObject({ state: 'failed', error: { code: 'unsupported_media_type' } });
    expect(r.error!.message).toContain('PDF documents');
    expect((await call<UploadStatus>(studio, 'assets.uploadPath', { path: '/no/such/file.png' })).error?.code).toBe('not_found');
    expect((await call<UploadStatus>(studio, 'assets.uploadPath', { path: 'relative.png' })).error?.code).toBe('invalid_input');
    // A request after them is in the API's log: had they sent anything, it would be there first.
    const lists = apiRequests(api, 'GET', '/api/assets').length;
    await call(studio, 'assets.list');
    await waitFor(() => apiRequests(api, 'GET', '/api/assets').length > lists, 'the list request in the API log');
    expect(apiRequests(api, 'POST', '/api/assets').length).toBe(before);
  });

  it('can be canceled in the middle: the API sees the request end early and keeps nothing', async () => {
    const { studio, events } = await studioOn(api.url);
    await call(studio, 'assets.list'); // the connection is known before the API is paused
    // The real API reads a local upload faster than a test can cancel it: paused (SIGSTOP), it
    // reads nothing, so the upload stops with its socket buffers full, well before its end.
    const pid = api.proc.pid!;
    const aborts = api.log.filter((l) => l.includes('upload aborted by the client')).length;
    process.kill(pid, 'SIGSTOP');
    let end: UploadStatus;
    try {
      const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: sparse('clip.mp4', Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70]), 32 * 1024 * 1024) });
      await waitFor(() => events.some((e) => e.type === 'upload' && e.upload.uploadId === up.uploadId && e.upload.sentBytes > 0), 'first bytes');
      expect((await call<UploadStatus[]>(studio, 'assets.uploads')).find((u) => u.uploadId === up.uploadId)).toMatchObject({ state: 'uploading' });
      await call(studio, 'assets.cancelUpload', { uploadId: up.uploadId });
      end = await finalOf(events, up.uploadId);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(end).toMatchObject({ state: 'canceled', asset: null });
    expect(end.sentBytes).toBeLessThan(end.sizeBytes!);
    await waitFor(() => api.log.filter((l) => l.includes('upload aborted by the client')).length > aborts, 'the API to see the upload end');
    expect((await kept()).filter((a) => a.name === 'clip.mp4')).toEqual([]);
    expect((await refusal(studio, 'assets.cancelUpload', { uploadId: 'up_nonexistent' })).code).toBe('not_found');
  });
});

describe('assets', () => {
  it('a delete the API refuses (a queued job needs it) says so; afterwards it goes', async () => {
    const { studio, events } = await studioOn(api.url);
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('bg.png', PNG) });
    const { asset } = await finalOf(events, up.uploadId);
    // A real scene job naming the asset; ten minutes long, so it is still queued or rendering.
    const { job } = await call<{ job: Job }>(studio, 'jobs.submit', {
      request: { templateId: 'newsroom', voiceId: 'en-US-Ava', scenes: [{ text: 'Hello.', background: { assetId: asset!.id, fit: 'cover' }, minSeconds: 600 }] },
    });
    try {
      expect(await refusal(studio, 'assets.delete', { id: asset!.id })).toEqual({
        code: 'asset_in_use',
        message: `"bg.png" is used by a job still queued or rendering (${job.id}); cancel it or wait until it finishes`,
      });
      expect(['queued', 'rendering']).toContain((await jobOnApi(job.id)).status);
    } finally {
      await call(studio, 'jobs.cancel', { id: job.id });
    }
    await call(studio, 'assets.delete', { id: asset!.id });
    expect((await refusal(studio, 'assets.get', { id: asset!.id })).code).toBe('not_found');
    expect((await kept()).map((a) => a.id)).not.toContain(asset!.id);
  });

  it('against an API whose health lacks "assets": unsupported, saying why', async () => {
    // A double: the real API always has the extension, so an older one is played by a server
    // answering only its health (without "assets"), which notes every other request.
    const asked: string[] = [];
    const old = createServer((req, res) => {
      if (req.url === '/api/health') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ status: 'ok', version: '0.9.0', extensions: ['title'] }));
      }
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'not_found', message: 'no such route', requestId: 'req_old' } }));
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    try {
      const { studio } = await studioOn(`http://127.0.0.1:${(old.address() as AddressInfo).port}`);
      for (const [method, input] of [['assets.list', undefined], ['assets.get', { id: 'a' }], ['assets.delete', { id: 'a' }], ['assets.uploadPath', { path: file('a.png', PNG) }]] as const) {
        const err = await refusal(studio, method, input);
        expect(err.code).toBe('unsupported');
        expect(err.message).toContain('"assets"');
      }
      expect(asked.filter((r) => r.includes('/api/assets'))).toEqual([]);
    } finally {
      old.closeAllConnections();
      await new Promise((r) => old.close(r));
    }
  });

  it('the file dialog uploads each chosen file; the web shell has none', async () => {
    const a = file('a.png', PNG);
    const b = file('b.pdf', pdf(1));
    const asked: unknown[] = [];
    const { studio, events } = await studioOn(api.url, { chooseFiles: async (kinds) => (asked.push(kinds), [a, b]) });
    const { uploads } = await call<{ uploads: UploadStatus[] }>(studio, 'assets.pick', { kinds: ['image', 'document'] });
    expect(asked).toEqual([['image', 'document']]);
    expect(uploads.map((u) => u.name)).toEqual(['a.png', 'b.pdf']);
    for (const u of uploads) expect((await finalOf(events, u.uploadId)).state).toBe('done');
    const none = await studioOn(api.url, { chooseFiles: async () => [] });
    expect(await call(none.studio, 'assets.pick', undefined)).toEqual({ uploads: [] });
  });
});

describe('slide decks', () => {
  it('without LibreOffice: refused, saying to export it as PDF', async () => {
    const { studio, events } = await studioOn(api.url, { findSoffice: async () => null });
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('Pitch.pptx', 'PK deck') });
    const end = await finalOf(events, up.uploadId);
    expect(end.state).toBe('failed');
    expect(end.error!.message).toMatch(/export the deck as PDF/);
  });

  it('with LibreOffice: converted to PDF (state converting), then uploaded as Pitch.pdf; nothing left behind', async () => {
    // A stand-in for soffice where LibreOffice is not installed: it must be called as documented,
    // and "converts" by writing a real 2-page PDF, which the real API then takes.
    const bin = tempDir();
    const soffice = join(bin, 'soffice');
    writeFileSync(join(bin, 'deck.pdf'), DECK);
    writeFileSync(soffice, `#!/bin/sh
out=""; prev=""; headless=0; pdf=0
for a in "$@"; do
  [ "$a" = "--headless" ] && headless=1
  [ "$prev" = "--convert-to" ] && [ "$a" = "pdf" ] && pdf=1
  [ "$prev" = "--outdir" ] && out="$a"
  prev="$a"; last="$a"
done
[ $headless = 1 ] && [ $pdf = 1 ] && [ -n "$out" ] || exit 3
name=$(basename "$last"); cp "${join(bin, 'deck.pdf')}" "$out/\${name%.*}.pdf"
`);
    chmodSync(soffice, 0o755);
    const { studio, events, dataDir: appDir } = await studioOn(api.url, { findSoffice: async () => soffice });
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('Pitch.pptx', 'PK deck') });
    const end = await finalOf(events, up.uploadId);
    expect(end).toMatchObject({ state: 'done', name: 'Pitch.pdf', asset: { kind: 'document', name: 'Pitch.pdf' } });
    expect(events.some((e) => e.type === 'upload' && e.upload.uploadId === up.uploadId && e.upload.state === 'converting')).toBe(true);
    expect((await askApi<Asset>(api.url, KEY, `/api/assets/${end.asset!.id}`)).body).toMatchObject({ name: 'Pitch.pdf', mediaType: 'application/pdf', pages: 2 });
    const stored = await fetch(`${api.url}/api/assets/${end.asset!.id}/content`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(Buffer.from(await stored.arrayBuffer()).equals(DECK)).toBe(true);
    const work = join(appDir, 'tmp', 'uploads');
    expect(existsSync(work) ? readdirSync(work) : []).toEqual([]);
  });
});

describe('a scene job', () => {
  it('duplicates into a draft of its scenes, and retries with them', async () => {
    const { studio, events } = await studioOn(api.url);
    const deck = await finalOf(events, (await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('numbers.pdf', DECK) })).uploadId);
    const assetId = deck.asset!.id;
    const request = {
      title: 'Deck', templateId: 'newsroom', voiceId: 'en-US-Ava',
      scenes: [
        { text: 'Welcome.' },
        { text: 'The numbers.', avatar: null, background: { assetId, page: 2, fit: 'contain' }, transition: 'fade', minSeconds: 5 },
        { text: 'Thanks.', avatar: { scale: 0.5, x: 0.2, y: 0.8 }, transition: 'slide' },
      ],
    };
    const { job } = await call<{ job: Job }>(studio, 'jobs.submit', { request });
    const made = [job.id];
    try {
      const draft = await call<{ name: string; version: number; scenes: unknown[] }>(studio, 'jobs.duplicate', { id: job.id });
      expect(draft).toMatchObject({ name: 'Deck (copy)', version: 3, templateId: 'newsroom', voiceId: 'en-US-Ava' });
      expect(draft.scenes).toMatchObject([
        { text: 'Welcome.', presenter: true, avatar: null, background: null, transition: 'cut', minSeconds: null },
        { text: 'The numbers.', presenter: false, avatar: null, background: { assetId, page: 2, fit: 'contain' }, transition: 'fade', minSeconds: 5 },
        { text: 'Thanks.', presenter: true, avatar: { scale: 0.5, x: 0.2, y: 0.8 }, transition: 'slide' },
      ]);
      const again = await call<{ job: Job }>(studio, 'jobs.retry', { id: job.id });
      made.push(again.job.id);
      expect(again.job.id).not.toBe(job.id);
      // The API took a request of scenes (it refuses one with both `text` and `scenes`), as they were.
      const onApi = await jobOnApi(again.job.id);
      expect(onApi).toMatchObject({ title: 'Deck', scenes: [{ text: 'Welcome.' }, { avatar: null, background: { assetId, page: 2 }, minSeconds: 5 }, { avatar: { scale: 0.5 } }] });
    } finally {
      for (const id of made) await cancelOnApi(id);
    }
  });
});

describe('a scene job while the API is away', () => {
  it('waits in the outbox (version 2, its assets by id) and is sent once with its Idempotency-Key when the API is back', async () => {
    const { studio, events } = await studioOn(api.url);
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('slide.pdf', DECK) });
    expect(up.state).toBe('uploading');
    const assetId = (await finalOf(events, up.uploadId)).asset!.id;
    const port = Number(new URL(api.url).port);
    await api.stop();

    const request = {
      templateId: 'newsroom', voiceId: 'en-US-Ava',
      scenes: [{ text: 'Welcome.' }, { text: 'Page two.', avatar: null, background: { assetId, page: 2, fit: 'contain' }, transition: 'fade' }],
    };
    const r = await call<{ job: unknown; queued: { id: string; version: number; request: typeof request } }>(studio, 'jobs.submit', { request });
    expect(r.job).toBeNull();
    expect(r.queued).toMatchObject({ version: 2, request: { scenes: [{ text: 'Welcome.' }, { background: { assetId, page: 2 } }] } });

    api = await startApi(dataDir, port, API_ARGS);
    await call(studio, 'outbox.resend', { id: r.queued.id });
    await waitFor(async () => (await call<unknown[]>(studio, 'outbox.list')).length === 0, 'the outbox to drain');
    const { jobs } = (await askApi<{ jobs: Job[] }>(api.url, KEY, '/api/jobs?limit=100')).body;
    const sent = jobs.filter((j) => j.scenes?.some((sc) => sc.text === 'Page two.'));
    try {
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ scenes: [{ text: 'Welcome.' }, { avatar: null, background: { assetId, page: 2, fit: 'contain' }, transition: 'fade' }] });
      // Sent with the outbox entry's id as its Idempotency-Key: the same key again is the same job.
      const replay = await askApi<Job>(api.url, KEY, '/api/render', { method: 'POST', json: request, headers: { 'idempotency-key': r.queued.id } });
      expect(replay.body.id).toBe(sent[0]!.id);
    } finally {
      for (const j of sent) await cancelOnApi(j.id);
    }
  });
});

describe('file types', () => {
  it('by extension, whatever its case; the file dialog offers the same per kind', () => {
    expect(fileTypeOf('A.JPEG')).toEqual({ mediaType: 'image/jpeg', kind: 'image', convert: false });
    expect(fileTypeOf('talk.mov')?.mediaType).toBe('video/quicktime');
    expect(fileTypeOf('deck.PPTX')).toEqual({ mediaType: 'application/pdf', kind: 'document', convert: true });
    expect(fileTypeOf('notes.txt')).toBeNull();
    expect(fileTypeOf('no-extension')).toBeNull();
    expect(dialogFilters(['image'])).toEqual([{ name: 'Pictures', extensions: ['png', 'jpg', 'jpeg', 'webp'] }]);
    const all = dialogFilters();
    expect(all[0]!.name).toBe('All media');
    expect(all[0]!.extensions).toEqual(expect.arrayContaining(['mp4', 'mp3', 'pdf', 'pptx']));
    for (const f of all.slice(1)) for (const e of f.extensions) expect(fileTypeOf(`x.${e}`), e).not.toBeNull();
  });
});
