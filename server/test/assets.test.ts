// Extension `assets` over a real socket: uploads of every kind are probed and thumbnailed;
// lying, damaged, oversized and aborted uploads are refused and leave no file and no row;
// other users see 404 everywhere; an asset a queued job needs cannot be deleted.
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, AssetList } from '../../shared/contract/index.js';
import { ffmpegMedia, pdf, picture } from './fixtures/media.js';
import { call, errorCode, testServer, validRequest, waitFor, type TestServer } from './helpers.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are checked by the tests
  body: any;
}

/** POSTs bytes with node:http (chunked when `chunked`), so a test controls how the body goes out. */
function upload(
  url: string,
  key: string,
  name: string | null,
  type: string | null,
  bytes: Buffer,
  opts: { chunked?: boolean; abortAfter?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const u = new URL(`${url}/api/assets${name === null ? '' : `?name=${encodeURIComponent(name)}`}`);
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (type) headers['content-type'] = type;
    if (!opts.chunked) headers['content-length'] = String(bytes.length);
    const req = httpRequest(u, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', (err) => (opts.abortAfter !== undefined ? resolve({ status: 0, headers: {}, body: undefined }) : reject(err)));
    if (opts.abortAfter !== undefined) {
      req.write(bytes.subarray(0, opts.abortAfter));
      setTimeout(() => req.destroy(), 150);
      return;
    }
    // Written in pieces: a server that answers early (a limit passed) may close before the end.
    let at = 0;
    const next = () => {
      while (at < bytes.length) {
        const piece = bytes.subarray(at, at + 16384);
        at += piece.length;
        if (!req.write(piece)) return void req.once('drain', next);
      }
      req.end();
    };
    next();
  });
}

const contractError = (a: Answer) => {
  expect(a.body?.error?.requestId).toBeTypeOf('string');
  return a.body.error.code as string;
};

let server: TestServer;
let alice: string;
let bob: string;
let scratch: string;
const media: Record<string, Buffer> = {};

/** Files and rows of the data folder's assets and uploads. */
function leftovers(): { stored: string[]; uploads: string[] } {
  const list = (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return []; // not made yet: nothing in it
    }
  };
  return { stored: list(join(server.dataDir, 'media', 'assets')), uploads: list(join(server.dataDir, 'work', 'uploads')) };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'ps-assets-media-'));
  [media.mp4, media.webm, media.mp3, media.faststart] = await Promise.all([
    ffmpegMedia(scratch, 'mp4'), ffmpegMedia(scratch, 'webm'), ffmpegMedia(scratch, 'mp3'), ffmpegMedia(scratch, 'mp4', 2, true),
  ]);
  media.png = picture(640, 360, 'png');
  media.jpeg = picture(400, 300, 'jpeg');
  media.pdf = pdf(2);
  server = await testServer({ concurrency: 0, assetLimits: { maxBytes: { image: 200_000 } } });
  alice = await server.userKey('alice');
  bob = await server.userKey('bob');
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

describe('uploads of every kind', () => {
  const cases = [
    { file: 'title card.png', type: 'image/png', key: 'png', kind: 'image', width: 640, height: 360 },
    { file: 'photo.jpg', type: 'image/jpeg', key: 'jpeg', kind: 'image', width: 400, height: 300 },
    { file: 'screen.mp4', type: 'video/mp4', key: 'mp4', kind: 'video', width: 320, height: 240, duration: 2 },
    { file: 'clip.webm', type: 'video/webm', key: 'webm', kind: 'video', width: 320, height: 240, duration: 2 },
    { file: 'tone.mp3', type: 'audio/mpeg', key: 'mp3', kind: 'audio', duration: 2 },
    { file: 'deck.pdf', type: 'application/pdf', key: 'pdf', kind: 'document', width: 842, height: 595, pages: 2 },
  ] as const;
  for (const c of cases) {
    it(`${c.file} becomes a ${c.kind} asset with its size, measures and a thumbnail`, async () => {
      const r = await upload(server.url, alice, c.file, c.type, media[c.key]!);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const asset = Asset.parse(r.body);
      expect(r.headers.location).toBe(`/api/assets/${asset.id}`);
      expect(asset).toMatchObject({ name: c.file, kind: c.kind, mediaType: c.type, sizeBytes: media[c.key]!.length });
      expect(asset.width).toBe('width' in c ? c.width : null);
      expect(asset.height).toBe('height' in c ? c.height : null);
      expect(asset.pages).toBe('pages' in c ? c.pages : null);
      if ('duration' in c) expect(asset.durationSeconds).toBeCloseTo(c.duration, 0);
      else expect(asset.durationSeconds).toBeNull();
      const thumb = await fetch(`${server.url}${asset.thumbnailUrl}`, { headers: { authorization: `Bearer ${alice}` } });
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/jpeg');
      const jpeg = Buffer.from(await thumb.arrayBuffer());
      expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      const content = await fetch(`${server.url}${asset.contentUrl}`, { headers: { authorization: `Bearer ${alice}` } });
      expect(content.headers.get('content-type')).toBe(c.type);
      expect(content.headers.get('x-content-type-options')).toBe('nosniff');
      expect(content.headers.get('content-disposition') ?? '').toMatch(c.kind === 'document' ? /^attachment/ : /^$/);
      expect(Buffer.from(await content.arrayBuffer()).equals(media[c.key]!)).toBe(true);
    });
  }

  it('serves byte ranges of the content', async () => {
    const a = Asset.parse((await upload(server.url, alice, 'range.png', 'image/png', media.png!)).body);
    const r = await fetch(`${server.url}${a.contentUrl}`, { headers: { authorization: `Bearer ${alice}`, range: 'bytes=0-7' } });
    expect(r.status).toBe(206);
    expect(Buffer.from(await r.arrayBuffer())).toEqual(media.png!.subarray(0, 8));
  });

  it('lists newest first, by kind and name, page by page', async () => {
    const all = AssetList.parse((await call(`${server.url}/api/assets?limit=100`, { key: alice })).body);
    expect(all.assets.length).toBeGreaterThanOrEqual(6);
    expect(all.assets.map((a) => a.id)).toEqual([...all.assets.map((a) => a.id)].sort().reverse());
    const videos = AssetList.parse((await call(`${server.url}/api/assets?kind=video`, { key: alice })).body);
    expect(videos.assets.map((a) => a.name).sort()).toEqual(['clip.webm', 'screen.mp4']);
    const byName = AssetList.parse((await call(`${server.url}/api/assets?q=DECK`, { key: alice })).body);
    expect(byName.assets.map((a) => a.name)).toEqual(['deck.pdf']);
    const first = AssetList.parse((await call(`${server.url}/api/assets?limit=2`, { key: alice })).body);
    const second = AssetList.parse((await call(`${server.url}/api/assets?limit=2&cursor=${first.nextCursor}`, { key: alice })).body);
    expect(second.assets.map((a) => a.id)).toEqual(all.assets.slice(2, 4).map((a) => a.id));
    expect(errorCode(await call(`${server.url}/api/assets?kind=sticker`, { key: alice }))).toBe('validation_failed');
    expect(AssetList.parse((await call(`${server.url}/api/assets?q=%00`, { key: alice })).body).assets).toEqual([]);
    expect((await call(`${server.url}/api/assets/ast_%00`, { key: alice })).status).toBe(404);
    expect(errorCode(await call(`${server.url}/api/assets?cursor=abc`, { key: alice }))).toBe('validation_failed');
  });

  it('keeps the name cleaned: no slashes, control characters, or more than 255 bytes', async () => {
    const r = await upload(server.url, alice, `../../etc/pa\\ss\u0000wd\u0007${'é'.repeat(200)}.png`, 'image/png', media.png!);
    expect(r.status).toBe(201);
    expect(r.body.name).toMatch(/^\.\.\.\.etcpasswd(é)+$/);
    expect(Buffer.byteLength(r.body.name)).toBeLessThanOrEqual(255);
  });
});

describe('refused uploads keep nothing', () => {
  const refuses = async (a: Promise<Answer>, status: number, code: string, message: RegExp) => {
    const before = (AssetList.parse((await call(`${server.url}/api/assets?limit=100`, { key: alice })).body)).assets.length;
    const storedBefore = leftovers().stored.length;
    const r = await a;
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(contractError(r)).toBe(code);
    expect(r.body.error.message).toMatch(message);
    expect(AssetList.parse((await call(`${server.url}/api/assets?limit=100`, { key: alice })).body).assets.length).toBe(before);
    expect(leftovers().stored.length).toBe(storedBefore);
    expect(leftovers().uploads).toEqual([]);
  };

  it('a text file sent as image/png: 415 saying what it really is', () =>
    refuses(upload(server.url, alice, 'logo.png', 'image/png', Buffer.from('just some words, not a picture\n'.repeat(20))), 415, 'unsupported_media_type', /this \.png is really a text file/));

  it('a JPEG sent as image/png: 415 naming JPEG', () =>
    refuses(upload(server.url, alice, 'logo.png', 'image/png', media.jpeg!), 415, 'unsupported_media_type', /really a JPG file \(image\/jpeg\)/));

  it('a missing, octet-stream or unlisted Content-Type: 415', async () => {
    await refuses(upload(server.url, alice, 'x.png', null, media.png!), 415, 'unsupported_media_type', /no Content-Type/);
    await refuses(upload(server.url, alice, 'x.png', 'application/octet-stream', media.png!), 415, 'unsupported_media_type', /not a media type we keep/);
    await refuses(upload(server.url, alice, 'x.gif', 'image/gif', media.png!), 415, 'unsupported_media_type', /image\/gif/);
  });

  it('another method on an asset path: 405 with Allow', async () => {
    const r = await call(`${server.url}/api/assets/ast_00000000000000000000000000`, { key: alice, method: 'PUT' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, DELETE');
  });

  it('no name: 422', async () => {
    const r = await upload(server.url, alice, null, 'image/png', media.png!);
    expect(r.status).toBe(422);
    expect(r.body.error.details[0].path).toBe('name');
  });

  it('a truncated MP4, its index at the end or (fast start) at the front: 422', async () => {
    await refuses(upload(server.url, alice, 'cut.mp4', 'video/mp4', media.mp4!.subarray(0, Math.floor(media.mp4!.length / 2))), 422, 'validation_failed', /truncated MP4/);
    await refuses(upload(server.url, alice, 'cut.mp4', 'video/mp4', media.faststart!.subarray(0, Math.floor(media.faststart!.length * 0.8))), 422, 'validation_failed', /truncated MP4/);
  });

  it('a truncated PNG and JPEG (which Skia would decode with the rest blank): 422', async () => {
    await refuses(upload(server.url, alice, 'cut.png', 'image/png', media.png!.subarray(0, Math.floor(media.png!.length * 0.9))), 422, 'validation_failed', /truncated PNG/);
    await refuses(upload(server.url, alice, 'cut.jpg', 'image/jpeg', media.jpeg!.subarray(0, Math.floor(media.jpeg!.length * 0.9))), 422, 'validation_failed', /truncated JPEG/);
  });

  it('a truncated WebM: 422', () =>
    refuses(upload(server.url, alice, 'cut.webm', 'video/webm', media.webm!.subarray(0, Math.floor(media.webm!.length * 0.7))), 422, 'validation_failed', /truncated WebM/));

  it('a video in a codec no decoder here knows: 422 naming it', () => {
    const odd = Buffer.from(media.mp4!);
    odd.write('xyz1', odd.lastIndexOf('avc1'), 'latin1'); // the sample entry's codec
    return refuses(upload(server.url, alice, 'odd.mp4', 'video/mp4', odd), 422, 'validation_failed', /video codec not supported \(xyz1\)/);
  });

  it('a PDF that is not one: 422', () => {
    const fake = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('this is no document at all\n'.repeat(30))]);
    return refuses(upload(server.url, alice, 'fake.pdf', 'application/pdf', fake), 422, 'validation_failed', /PDF/);
  });

  it('an image whose header claims 20000×20000 pixels: 422 before decoding', () => {
    const png = Buffer.from(media.png!);
    png.writeUInt32BE(20000, 16);
    png.writeUInt32BE(20000, 20);
    return refuses(upload(server.url, alice, 'bomb.png', 'image/png', png), 422, 'validation_failed', /20000×20000/);
  });

  it('over the kind limit, declared: 413 before reading', () =>
    refuses(upload(server.url, alice, 'big.png', 'image/png', Buffer.alloc(300_000, 1)), 413, 'payload_too_large', /limit for an image/));

  it('over the kind limit, streamed without a length: 413 once the limit is passed', () =>
    refuses(upload(server.url, alice, 'big.png', 'image/png', Buffer.concat([media.png!, Buffer.alloc(300_000, 1)]), { chunked: true }), 413, 'payload_too_large', /limit/));

  it('an upload aborted mid-body leaves no file and no row', async () => {
    const before = AssetList.parse((await call(`${server.url}/api/assets?limit=100`, { key: alice })).body).assets.length;
    const storedBefore = leftovers().stored.length;
    await upload(server.url, alice, 'half.mp4', 'video/mp4', media.mp4!, { abortAfter: 4000 });
    await waitFor(async () => leftovers().uploads.length === 0, 3000);
    expect(leftovers().stored.length).toBe(storedBefore);
    expect(AssetList.parse((await call(`${server.url}/api/assets?limit=100`, { key: alice })).body).assets.length).toBe(before);
  });
});

describe('owners and use', () => {
  it("another user's asset is 404 on every path", async () => {
    const a = Asset.parse((await upload(server.url, alice, 'mine.png', 'image/png', media.png!)).body);
    for (const path of [`/api/assets/${a.id}`, `/api/assets/${a.id}/content`, `/api/assets/${a.id}/thumbnail.jpg`]) {
      const r = await call(`${server.url}${path}`, { key: bob });
      expect(r.status, path).toBe(404);
      expect(errorCode(r)).toBe('not_found');
    }
    expect(errorCode(await call(`${server.url}/api/assets/${a.id}`, { key: bob, method: 'DELETE' }))).toBe('not_found');
    expect(AssetList.parse((await call(`${server.url}/api/assets`, { key: bob })).body).assets).toEqual([]);
    expect((await call(`${server.url}/api/assets/${a.id}`, { key: alice })).status).toBe(200);
  });

  it('a per-user quota: 429 quota_exceeded', async () => {
    const small = await testServer({ assetLimits: { quotaBytes: media.png!.length + 10 } });
    try {
      const k = await small.userKey('carol');
      expect((await upload(small.url, k, 'a.png', 'image/png', media.png!)).status).toBe(201);
      const r = await upload(small.url, k, 'b.png', 'image/png', media.png!);
      expect(r.status).toBe(429);
      expect(contractError(r)).toBe('quota_exceeded');
      expect(r.headers['retry-after']).toBeDefined();
      // Another user has a quota of their own.
      expect((await upload(small.url, await small.userKey('dave'), 'a.png', 'image/png', media.png!)).status).toBe(201);
    } finally {
      await small.stop();
    }
  });

  it('DELETE while a queued job uses it: 409 asset_in_use; once the job is gone: 204 and the files go', async () => {
    const a = Asset.parse((await upload(server.url, alice, 'bg.png', 'image/png', media.png!)).body);
    const job = await call(`${server.url}/api/render`, {
      key: alice,
      json: { ...validRequest, text: undefined, scenes: [{ text: 'Over my picture.', background: { assetId: a.id } }] },
    });
    expect(job.status, job.text).toBe(202);
    const refused = await call(`${server.url}/api/assets/${a.id}`, { key: alice, method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(errorCode(refused)).toBe('asset_in_use');
    expect(refused.body.error.message).toContain(job.body.id);
    // Without an engine the job fails at once; a finished job no longer holds its assets.
    await call(`${server.url}/api/jobs/${job.body.id}/cancel`, { key: alice, method: 'POST' });
    const gone = await call(`${server.url}/api/assets/${a.id}`, { key: alice, method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect(leftovers().stored).not.toContain(a.id);
    expect((await call(`${server.url}/api/assets/${a.id}`, { key: alice })).status).toBe(404);
  });
});
