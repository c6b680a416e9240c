// Extension `brand` over a real socket: a brand's logo, accent colour and font checked against
// the caller's assets (each problem a 422 naming its field), carried by the Job, holding its
// assets while the job waits, and drawn by the real engine: the logo at its corner and size and
// nowhere else, the accent colour in the captions, a font asset's letters in place of the template's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Asset, outputSize, type Brand, type Job } from '../../shared/contract/index.js';
import { computeLayout, parseColor, safeArea, type Rect } from '../../shared/scene/index.js';
import { createEngine } from '../engine/index.js';
import { decodeFrames, type Frame } from '../engine/test/media.js';
import { RESOURCES_DIR } from '../engine/frames/assets.js';
import { createTestEngine, type TestEngine } from './fixtures/test-engine.js';
import { picture } from './fixtures/media.js';
import { call, errorCode, testServer, waitFor, type Res, type TestServer } from './helpers.js';

const FONT_FILE = join(RESOURCES_DIR, 'fonts', 'DejaVuSerif-Italic.ttf');

async function put(server: TestServer, key: string, name: string, type: string, bytes: Buffer): Promise<Res & { id: string }> {
  const r = await fetch(`${server.url}/api/assets?name=${encodeURIComponent(name)}`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type }, body: new Uint8Array(bytes),
  });
  const text = await r.text();
  const body = text ? JSON.parse(text) : undefined;
  return { status: r.status, headers: r.headers, body, text, id: r.status === 201 ? Asset.parse(body).id : '' };
}

/** A logo: a solid teal plate with a white bar, opaque, 2:1. */
function logoPng(): Buffer {
  const c = createCanvas(200, 100);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#00a0b0';
  ctx.fillRect(0, 0, 200, 100);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(40, 40, 120, 20);
  return c.toBuffer('image/png');
}

function refused(r: Res): Record<string, string> {
  expect(r.status, r.text).toBe(422);
  expect(errorCode(r)).toBe('validation_failed');
  return Object.fromEntries((r.body.error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]));
}

describe('brand requests checked over a socket', () => {
  let server: TestServer;
  let engine: TestEngine;
  let alice: string;
  let bob: string;
  const ids = { logo: '', font: '', sound: '', bobsLogo: '' };
  const render = (body: object, key = alice) => call(`${server.url}/api/render`, { key, json: { templateId: 'newsroom', voiceId: 'en-US-Ava', ...body } });

  beforeAll(async () => {
    engine = createTestEngine();
    server = await testServer({ engine, concurrency: 1 });
    alice = await server.userKey('alice');
    bob = await server.userKey('bob');
    ids.logo = (await put(server, alice, 'logo.png', 'image/png', logoPng())).id;
    ids.font = (await put(server, alice, 'serif.ttf', 'font/ttf', readFileSync(FONT_FILE))).id;
    ids.bobsLogo = (await put(server, bob, 'bob.png', 'image/png', picture(64, 64, 'png'))).id;
    expect(ids.logo && ids.font && ids.bobsLogo).toBeTruthy();
  }, 60_000);
  afterAll(async () => {
    engine.release();
    await server?.stop();
  });

  it('a font upload that does not parse is refused with the reason; a good one is a font asset', async () => {
    const ttf = readFileSync(FONT_FILE);
    const cut = await put(server, alice, 'cut.ttf', 'font/ttf', ttf.subarray(0, 4000));
    expect(cut.status, cut.text).toBe(422);
    expect(cut.body.error.message).toMatch(/does not parse as a font/);
    const asset = Asset.parse((await call(`${server.url}/api/assets/${ids.font}`, { key: alice })).body);
    expect(asset).toMatchObject({ kind: 'font', mediaType: 'font/ttf' });
    const thumb = await fetch(`${server.url}${asset.thumbnailUrl}`, { headers: { authorization: `Bearer ${alice}` } });
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');
  });

  it('names each bad field: logo asset, colour, size, font', async () => {
    expect(refused(await render({ text: 'Hi.', brand: { logo: { assetId: ids.bobsLogo, position: 'top-left', size: 0.1 } } })))
      .toHaveProperty('brand.logo.assetId', expect.stringMatching(/no asset/));
    expect(refused(await render({ text: 'Hi.', brand: { logo: { assetId: ids.font, position: 'top-left', size: 0.1 } } })))
      .toHaveProperty('brand.logo.assetId', expect.stringMatching(/not a picture/));
    expect(refused(await render({ text: 'Hi.', brand: { accentColor: 'yellow' } }))).toHaveProperty('brand.accentColor', expect.stringMatching(/#RRGGBB/));
    expect(refused(await render({ text: 'Hi.', brand: { accentColor: '#ffd40' } }))).toHaveProperty('brand.accentColor');
    expect(refused(await render({ text: 'Hi.', brand: { logo: { assetId: ids.logo, position: 'top-left', size: 0.31 } } })))
      .toHaveProperty('brand.logo.size', expect.stringMatching(/between 0.05 and 0.3/));
    expect(refused(await render({ text: 'Hi.', brand: { logo: { assetId: ids.logo, position: 'middle', size: 0.1 } } }))).toHaveProperty('brand.logo.position');
    expect(refused(await render({ text: 'Hi.', brand: { font: 'Comic Sans' } }))).toHaveProperty('brand.font', expect.stringMatching(/unknown font/));
    expect(refused(await render({ text: 'Hi.', brand: { font: ids.logo } }))).toHaveProperty('brand.font', expect.stringMatching(/not a font/));
    expect(refused(await render({ text: 'Hi.', brand: { captionStyle: 'neon' } }))).toHaveProperty('brand.captionStyle');
    expect(refused(await render({ text: 'Hi.', brand: { colour: '#ffffff' } }))).toHaveProperty('brand.colour');
  });

  it('the Job carries the brand; its logo and font cannot be deleted while it waits', async () => {
    const brand: Brand = { logo: { assetId: ids.logo, position: 'bottom-right', size: 0.12 }, accentColor: '#FFD400', font: ids.font, captionStyle: 'outline' };
    const created = await render({ text: 'Branded [hold]', brand });
    expect(created.status, created.text).toBe(202);
    expect((created.body as Job).brand).toEqual(brand);
    for (const id of [ids.logo, ids.font]) {
      const del = await call(`${server.url}/api/assets/${id}`, { key: alice, method: 'DELETE' });
      expect(del.status).toBe(409);
      expect(errorCode(del)).toBe('asset_in_use');
    }
    await call(`${server.url}/api/jobs/${created.body.id}/cancel`, { key: alice, method: 'POST' });
    const bundled = await render({ text: 'Plain font.', brand: { font: 'serif-italic' } });
    expect(bundled.status, bundled.text).toBe(202);
  });
});

describe('a branded render with the real engine', () => {
  let server: TestServer;
  let key: string;
  let files: string;
  const size = outputSize('16:9', 720);
  const ids = { logo: '', font: '' };
  const text = 'Brand colours, our logo and our font.';
  const avatar = { scale: 0.6, x: 0.72, y: 0.58 };
  const videos: Record<'plain' | 'branded' | 'fontAsset' | 'fontBundled', string> = { plain: '', branded: '', fontAsset: '', fontBundled: '' };
  const accent = '#e0218a';

  async function renderVideo(name: string, brand?: Brand): Promise<string> {
    const created = await call(`${server.url}/api/render`, {
      key, json: { text, templateId: 'podcast-studio', voiceId: 'en-GB-Ryan', params: { aspectRatio: '16:9', avatar }, ...(brand ? { brand } : {}) },
    });
    expect(created.status, created.text).toBe(202);
    const job = await waitFor(async () => {
      const j = (await call(`${server.url}/api/jobs/${created.body.id}`, { key })).body as Job;
      return ['completed', 'failed', 'canceled'].includes(j.status) ? j : null;
    }, 90_000);
    expect(job.error).toBeNull();
    const res = await fetch(`${server.url}${job.output!.videoUrl}`, { headers: { authorization: `Bearer ${key}` } });
    const file = join(files, `${name}.mp4`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return file;
  }

  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'ps-brand-files-'));
    const engine = await createEngine({ cacheDir: join(files, 'engine-cache') });
    server = await testServer({ engine, concurrency: 1 });
    key = await server.userKey('creator');
    ids.logo = (await put(server, key, 'logo.png', 'image/png', logoPng())).id;
    ids.font = (await put(server, key, 'serif.ttf', 'font/ttf', readFileSync(FONT_FILE))).id;
    videos.plain = await renderVideo('plain');
    videos.branded = await renderVideo('branded', { logo: { assetId: ids.logo, position: 'top-left', size: 0.15 }, accentColor: accent, captionStyle: 'box' });
    videos.fontAsset = await renderVideo('font-asset', { font: ids.font });
    videos.fontBundled = await renderVideo('font-bundled', { font: 'serif-italic' });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(files, { recursive: true, force: true });
  });

  const frameAt = (file: string, n: number): Frame => decodeFrames(file, size.width, size.height, n, 1)[0]!;
  /** Bounding box of pixels that differ by more than `threshold` (sum over RGB) outside `exclude`. */
  function diffBox(a: Frame, b: Frame, threshold: number, ...excluded: Rect[]): Rect | null {
    let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
    for (let y = 0; y < a.height; y++) {
      for (let x = 0; x < a.width; x++) {
        if (excluded.some((r) => x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height)) continue;
        const i = (y * a.width + x) * 3;
        if (Math.abs(a.rgb[i]! - b.rgb[i]!) + Math.abs(a.rgb[i + 1]! - b.rgb[i + 1]!) + Math.abs(a.rgb[i + 2]! - b.rgb[i + 2]!) > threshold) {
          x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
        }
      }
    }
    return x1 < 0 ? null : { x: x0, y: y0, width: x1 + 1 - x0, height: y1 + 1 - y0 };
  }
  /** Pixels inside `r` within `tolerance` (per channel) of a colour. */
  function countNear(f: Frame, r: Rect, color: string, tolerance = 24): number {
    const c = parseColor(color);
    let n = 0;
    for (let y = Math.max(0, r.y); y < Math.min(f.height, r.y + r.height); y++) {
      for (let x = Math.max(0, r.x); x < Math.min(f.width, r.x + r.width); x++) {
        const i = (y * f.width + x) * 3;
        if (Math.abs(f.rgb[i]! - c.r) <= tolerance && Math.abs(f.rgb[i + 1]! - c.g) <= tolerance && Math.abs(f.rgb[i + 2]! - c.b) <= tolerance) n++;
      }
    }
    return n;
  }
  const layout = () => computeLayout('podcast-studio', { aspectRatio: '16:9', avatar }, size);
  /** The caption box, widened by a font size (what a brand may change besides the logo). */
  const captionZone = (): Rect => {
    const c = layout().caption;
    const m = layout().captionFontPx;
    return { x: 0, y: c.y - m, width: size.width, height: size.height - c.y + m };
  };

  it('shows the logo at top-left at the asked size, and changes nothing else outside the captions', () => {
    const safe = safeArea(size);
    const want = { x: safe.x, y: safe.y, width: Math.round(0.15 * size.width), height: Math.round((0.15 * size.width) / 2) };
    for (const n of [0, 45]) {
      const found = diffBox(frameAt(videos.branded, n), frameAt(videos.plain, n), 90, captionZone());
      expect(found).not.toBeNull();
      for (const [a, b] of [[found!.x, want.x], [found!.y, want.y], [found!.width, want.width], [found!.height, want.height]] as const) {
        expect(Math.abs(a - b), JSON.stringify({ found, want })).toBeLessThanOrEqual(2);
      }
    }
    // The logo's own colour, filling most of its box.
    expect(countNear(frameAt(videos.branded, 45), want, '#00a0b0')).toBeGreaterThan(want.width * want.height * 0.6);
  });

  it('draws the captions on a plate of the accent colour', () => {
    const c = layout().caption;
    const box: Rect = { x: c.x, y: c.y, width: c.width, height: c.height };
    const branded = countNear(frameAt(videos.branded, 45), box, accent);
    expect(branded).toBeGreaterThan(box.width * box.height * 0.15);
    expect(countNear(frameAt(videos.plain, 45), box, accent)).toBe(0);
  });

  it('sets the captions in the font asset: the same pixels as that face bundled, not the template font', () => {
    const zone = layout().caption;
    const even = (r: Rect): Rect => ({ x: r.x & ~1, y: r.y & ~1, width: (r.width + 1) & ~1, height: (r.height + 1) & ~1 });
    const crop = even(zone);
    const cut = (file: string) => decodeFrames(file, size.width, size.height, 45, 1, crop)[0]!;
    const meanDiff = (a: Frame, b: Frame) => {
      let s = 0;
      for (let i = 0; i < a.rgb.length; i++) s += Math.abs(a.rgb[i]! - b.rgb[i]!);
      return s / a.rgb.length;
    };
    const asset = cut(videos.fontAsset);
    expect(meanDiff(asset, cut(videos.plain))).toBeGreaterThan(4);
    expect(meanDiff(asset, cut(videos.fontBundled))).toBeLessThan(1);
  });
});
