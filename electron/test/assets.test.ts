// The media library through the privileged side: uploads streamed from a file with progress and
// cancel, the API's refusals passed through as they were said, asset media through the app's
// own URLs, slide decks through LibreOffice, and an API without the extension. Against the asset
// stand-in (a real socket) until the render API's asset routes are merged.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StudioEvent, UploadStatus } from '../../shared/bridge/index.js';
import type { AssetList } from '../../shared/contract/index.js';
import { dialogFilters, fileTypeOf } from '../services/asset-files.js';
import { dispatch } from '../services/dispatch.js';
import type { Studio } from '../services/studio.js';
import { startAssetApi, type AssetApiStandIn } from './asset-api-stand-in.js';
import { remoteOnlyStudio, tempDir, waitFor } from './helpers.js';

const KEY = 'psk_test_assets_0123456789';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(300_000, 7)]);
let api: AssetApiStandIn;
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
  const dataDir = tempDir();
  const studio = await remoteOnlyStudio(dataDir, { timeoutMs: 3000, retries: 0, backoffMs: 50 }, extra);
  studios.push(studio);
  const events: StudioEvent[] = [];
  studio.events.subscribe((e) => events.push(e));
  const p = await call<{ id: string }>(studio, 'profiles.save', { name: 'Team', baseUrl: url, keyHeader: 'bearer', key: KEY });
  await call(studio, 'profiles.select', { id: p.id });
  return { studio, events, dataDir };
}

const finalOf = (events: StudioEvent[], uploadId: string) =>
  waitFor(() => events.find((e): e is Extract<StudioEvent, { type: 'upload' }> => e.type === 'upload' && e.upload.uploadId === uploadId && ['done', 'failed', 'canceled'].includes(e.upload.state))?.upload, `upload ${uploadId} to end`, 15_000);

function file(name: string, bytes: Buffer | string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

beforeAll(async () => {
  api = await startAssetApi({ key: KEY, maxBytes: 2 * 1024 * 1024 });
});
afterEach(async () => {
  await Promise.all(studios.splice(0).map((s) => s.close()));
});
afterAll(async () => api.stop());

describe('uploads from a file', () => {
  it('stream the bytes with progress to the API, and the asset comes back with app-local URLs', async () => {
    const { studio, events } = await studioOn(api.url);
    const path = file('Team photo.png', PNG);
    const first = await call<UploadStatus>(studio, 'assets.uploadPath', { path });
    expect(first).toMatchObject({ name: 'Team photo.png', sizeBytes: PNG.length, state: 'uploading' });
    const done = await finalOf(events, first.uploadId);
    expect(done).toMatchObject({ state: 'done', sentBytes: PNG.length, error: null });
    const got = api.received.at(-1)!;
    expect(got.bytes.equals(PNG)).toBe(true);
    expect(got.mediaType).toBe('image/png');
    expect(got.name).toBe('Team photo.png');
    expect(got.headers['content-length']).toBe(String(PNG.length));
    // The key goes in a header only, never in a URL.
    expect(api.requests.every((r) => !r.url.includes(KEY))).toBe(true);
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
    expect(Buffer.from(await (await studio.openMedia(rest(asset.thumbnailUrl), {})).arrayBuffer()).toString()).toBe('jpeg-thumb');
    expect((await call<{ url: string }>(studio, 'media.assetUrl', { assetId: asset.id, kind: 'content' })).url).toBe(asset.contentUrl);

    const list = await call<AssetList>(studio, 'assets.list', { kind: 'image' });
    expect(list.assets.find((a) => a.id === asset.id)?.contentUrl).toBe(asset.contentUrl);
    expect((await call<{ name: string }>(studio, 'assets.get', { id: asset.id })).name).toBe('Team photo.png');
  });

  it('pass the API refusals through as it said them, and keep nothing', async () => {
    const { studio, events } = await studioOn(api.url);
    const liar = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('notes.png', 'just some text, not a picture') });
    expect((await finalOf(events, liar.uploadId)).error).toEqual({ code: 'unsupported_media_type', message: 'this .png is really a text file' });
    const big = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('huge.pdf', Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(3 * 1024 * 1024)])) });
    const bigEnd = await finalOf(events, big.uploadId);
    expect(bigEnd).toMatchObject({ state: 'failed', error: { code: 'payload_too_large' } });
    expect(bigEnd.error!.message).toContain('limit for document files');
  });

  it('a full library (429 quota_exceeded) says so, with the API message', async () => {
    const full = await startAssetApi({ key: KEY, quotaBytes: 1000 });
    try {
      const { studio, events } = await studioOn(full.url);
      const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('wide.png', PNG) });
      expect((await finalOf(events, up.uploadId)).error).toEqual({ code: 'quota_exceeded', message: 'your media library is full (5 GiB); delete files you no longer need' });
      expect(full.assets.size).toBe(0);
    } finally {
      await full.stop();
    }
  });

  it('refuse a file the library does not take before sending anything', async () => {
    const { studio } = await studioOn(api.url);
    const before = api.requests.length;
    const r = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('script.docx', 'x') });
    expect(r).toMatchObject({ state: 'failed', error: { code: 'unsupported_media_type' } });
    expect(r.error!.message).toContain('PDF documents');
    expect((await call<UploadStatus>(studio, 'assets.uploadPath', { path: '/no/such/file.png' })).error?.code).toBe('not_found');
    expect((await call<UploadStatus>(studio, 'assets.uploadPath', { path: 'relative.png' })).error?.code).toBe('invalid_input');
    expect(api.requests.slice(before).filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('can be canceled in the middle: the API sees the request end early and keeps nothing', async () => {
    const slow = await startAssetApi({ key: KEY, stallAfterBytes: 256 * 1024, maxBytes: 64 * 1024 * 1024 });
    try {
      const { studio, events } = await studioOn(slow.url);
      const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('clip.mp4', Buffer.alloc(24 * 1024 * 1024, 1)) });
      await waitFor(() => events.some((e) => e.type === 'upload' && e.upload.uploadId === up.uploadId && e.upload.sentBytes > 0), 'first bytes');
      expect((await call<UploadStatus[]>(studio, 'assets.uploads'))[0]).toMatchObject({ uploadId: up.uploadId, state: 'uploading' });
      await call(studio, 'assets.cancelUpload', { uploadId: up.uploadId });
      const end = await finalOf(events, up.uploadId);
      expect(end).toMatchObject({ state: 'canceled', asset: null });
      expect(end.sentBytes).toBeLessThan(end.sizeBytes!);
      await waitFor(() => slow.aborted.includes('clip.mp4'), 'the API to see the upload end');
      expect(slow.assets.size).toBe(0);
      expect((await refusal(studio, 'assets.cancelUpload', { uploadId: 'up_nonexistent' })).code).toBe('not_found');
    } finally {
      await slow.stop();
    }
  });
});

describe('assets', () => {
  it('a delete the API refuses (a queued job needs it) says so; afterwards it goes', async () => {
    const { studio, events } = await studioOn(api.url);
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('bg.png', PNG) });
    const { asset } = await finalOf(events, up.uploadId);
    api.inUse.add(asset!.id);
    expect(await refusal(studio, 'assets.delete', { id: asset!.id })).toEqual({ code: 'asset_in_use', message: '"bg.png" is still needed by a queued job; delete it once that job has finished' });
    api.inUse.delete(asset!.id);
    await call(studio, 'assets.delete', { id: asset!.id });
    expect((await refusal(studio, 'assets.get', { id: asset!.id })).code).toBe('not_found');
  });

  it('against an API whose health lacks "assets": unsupported, saying why', async () => {
    const old = await startAssetApi({ key: KEY, extensions: ['title'] });
    try {
      const { studio } = await studioOn(old.url);
      for (const [method, input] of [['assets.list', undefined], ['assets.get', { id: 'a' }], ['assets.delete', { id: 'a' }], ['assets.uploadPath', { path: file('a.png', PNG) }]] as const) {
        const err = await refusal(studio, method, input);
        expect(err.code).toBe('unsupported');
        expect(err.message).toContain('"assets"');
      }
      expect(old.requests.filter((r) => r.url.startsWith('/api/assets'))).toEqual([]);
    } finally {
      await old.stop();
    }
  });

  it('the file dialog uploads each chosen file; the web shell has none', async () => {
    const a = file('a.png', PNG);
    const b = file('b.pdf', '%PDF-1.4 tiny');
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
    // A stand-in for soffice where LibreOffice is not installed: it must be called as documented.
    const bin = tempDir();
    const soffice = join(bin, 'soffice');
    writeFileSync(soffice, `#!/bin/sh
out=""; prev=""; headless=0; pdf=0
for a in "$@"; do
  [ "$a" = "--headless" ] && headless=1
  [ "$prev" = "--convert-to" ] && [ "$a" = "pdf" ] && pdf=1
  [ "$prev" = "--outdir" ] && out="$a"
  prev="$a"; last="$a"
done
[ $headless = 1 ] && [ $pdf = 1 ] && [ -n "$out" ] || exit 3
name=$(basename "$last"); printf '%%PDF-1.4 from %s' "$name" > "$out/\${name%.*}.pdf"
`);
    chmodSync(soffice, 0o755);
    const { studio, events, dataDir } = await studioOn(api.url, { findSoffice: async () => soffice });
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('Pitch.pptx', 'PK deck') });
    const end = await finalOf(events, up.uploadId);
    expect(end).toMatchObject({ state: 'done', name: 'Pitch.pdf', asset: { kind: 'document', name: 'Pitch.pdf' } });
    expect(events.some((e) => e.type === 'upload' && e.upload.uploadId === up.uploadId && e.upload.state === 'converting')).toBe(true);
    expect(api.received.at(-1)).toMatchObject({ name: 'Pitch.pdf', mediaType: 'application/pdf' });
    expect(api.received.at(-1)!.bytes.toString()).toBe('%PDF-1.4 from Pitch.pptx');
    const work = join(dataDir, 'tmp', 'uploads');
    expect(existsSync(work) ? readdirSync(work) : []).toEqual([]);
  });
});

describe('a scene job while the API is away', () => {
  it('waits in the outbox (version 2, its assets by id) and is sent once with its Idempotency-Key when the API is back', async () => {
    const first = await startAssetApi({ key: KEY });
    const port = Number(new URL(first.url).port);
    const { studio } = await studioOn(first.url);
    const up = await call<UploadStatus>(studio, 'assets.uploadPath', { path: file('slide.pdf', '%PDF-1.4 two pages') });
    const assetId = (await waitFor(() => first.assets.size > 0 && [...first.assets.keys()][0], 'the asset')) as string;
    expect(up.state).toBe('uploading');
    await first.stop();

    const request = {
      templateId: 'newsroom', voiceId: 'en-US-Ava',
      scenes: [{ text: 'Welcome.' }, { text: 'Page two.', avatar: null, background: { assetId, page: 2, fit: 'contain' }, transition: 'fade' }],
    };
    const r = await call<{ job: unknown; queued: { id: string; version: number; request: typeof request } }>(studio, 'jobs.submit', { request });
    expect(r.job).toBeNull();
    expect(r.queued).toMatchObject({ version: 2, request: { scenes: [{ text: 'Welcome.' }, { background: { assetId, page: 2 } }] } });

    const back = await startAssetApi({ key: KEY, port });
    try {
      await call(studio, 'outbox.resend', { id: r.queued.id });
      await waitFor(async () => (await call<unknown[]>(studio, 'outbox.list')).length === 0, 'the outbox to drain');
      expect(back.renders).toHaveLength(1);
      expect(back.renders[0]!.idempotencyKey).toBe(r.queued.id);
      expect(back.renders[0]!.body).toMatchObject({ scenes: [{ text: 'Welcome.' }, { avatar: null, background: { assetId, page: 2, fit: 'contain' }, transition: 'fade' }] });
    } finally {
      await back.stop();
    }
  });
});

describe('a scene job', () => {
  it('duplicates into a draft of its scenes, and retries with them', async () => {
    const { studio } = await studioOn(api.url);
    const request = {
      title: 'Deck', templateId: 'newsroom', voiceId: 'en-US-Ava',
      scenes: [
        { text: 'Welcome.' },
        { text: 'The numbers.', avatar: null, background: { assetId: 'ast_x', page: 2, fit: 'contain' }, transition: 'fade', minSeconds: 5 },
        { text: 'Thanks.', avatar: { scale: 0.5, x: 0.2, y: 0.8 }, transition: 'slide' },
      ],
    };
    const { job } = await call<{ job: { id: string } }>(studio, 'jobs.submit', { request });
    const draft = await call<{ name: string; version: number; scenes: unknown[] }>(studio, 'jobs.duplicate', { id: job.id });
    expect(draft).toMatchObject({ name: 'Deck (copy)', version: 2, templateId: 'newsroom', voiceId: 'en-US-Ava' });
    expect(draft.scenes).toMatchObject([
      { text: 'Welcome.', presenter: true, avatar: null, background: null, transition: 'cut', minSeconds: null },
      { text: 'The numbers.', presenter: false, avatar: null, background: { assetId: 'ast_x', page: 2, fit: 'contain' }, transition: 'fade', minSeconds: 5 },
      { text: 'Thanks.', presenter: true, avatar: { scale: 0.5, x: 0.2, y: 0.8 }, transition: 'slide' },
    ]);
    await call(studio, 'jobs.retry', { id: job.id });
    expect(api.renders.at(-1)!.body).toMatchObject({ title: 'Deck', scenes: [{ text: 'Welcome.' }, { avatar: null, background: { page: 2 }, minSeconds: 5 }, { avatar: { scale: 0.5 } }] });
    expect(api.renders.at(-1)!.body.text).toBeUndefined();
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
