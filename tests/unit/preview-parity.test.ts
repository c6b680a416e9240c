// The promise of docs/engine.md: the editor's preview and the rendered video show the same
// picture. The renderer's own preview code (renderer/canvas/scene.ts, built by Vite) draws in
// Debian's Chromium; the engine composes the video frame of the same pose (yuv420p, from its
// YUV sprites, as ffmpeg receives it). For every template and aspect ratio they may differ by
// no more than the two rasterisers' anti-aliasing: mean < 1 level per plane, and the
// presenter's painted box within 2 px.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { chromium, type Browser, type Page } from 'playwright';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASPECT_RATIOS, outputSize, type AspectRatio, type RenderParams, type Template } from '../../shared/contract/index.js';
import { createAnimation, fillParams, NEUTRAL_POSE, poseAt, publicTemplate, SCENE_FONTS, TEMPLATES, type Rect } from '../../shared/scene/index.js';
import { composedSource, FramePool, prepareScene } from '../../server/engine/frames/scene-frames.js';
import { rendererDirs, rendererFile } from '../../electron/services/renderer-files.js';
import { framePlanes, type Target } from '../../server/engine/frames/sprites.js';
import { rgbaToYuva } from '../../server/engine/frames/yuv.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE_DIR = fileURLToPath(new URL('./preview-page/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CAPTION = 'Good evening, and welcome to the news from our studio.';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.svg': 'image/svg+xml', '.ttf': 'font/ttf', '.otf': 'font/otf' };

let outDir = '';
let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  outDir = mkdtempSync(join(tmpdir(), 'ps-preview-'));
  await build({ configFile: false, root: PAGE_DIR, base: './', logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false, assetsInlineLimit: 0 } });
  // Served as the app serves it: the build, and the fonts from resources/fonts.
  const dirs = rendererDirs(ROOT, outDir);
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = rendererFile(dirs, path === '/' ? '/index.html' : path);
    if (!file || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => 'previewPng' in window);
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

/** The preview Chromium draws (or its background alone), as yuv420p by the engine's own conversion. */
async function preview(template: Template, params: RenderParams, width: number, height: number, background = false): Promise<Target> {
  const url = await page.evaluate(
    ([t, p, w, h, c, b]) => (window as unknown as { previewPng: (...a: unknown[]) => Promise<string> }).previewPng(t, p, w, h, c, b),
    [template, params, width, height, CAPTION, background] as const,
  );
  const img = await loadImage(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return rgbaToYuva(new Uint8Array(ctx.getImageData(0, 0, width, height).data.buffer), width, height);
}

/** The video frame at t = 0 (rest pose, first caption page, first word spoken). */
async function videoFrame(templateId: string, params: RenderParams): Promise<{ frame: Target; background: Target; caption: Rect }> {
  const words = CAPTION.split(' ').map((text, i) => ({ text, start: i, end: i + 1 }));
  const scene = await prepareScene(templateId, { params, shortSide: 720 }, words);
  const anim = createAnimation({ durationSeconds: words.length, words, phonemes: [] });
  expect(poseAt(anim, 0)).toEqual(NEUTRAL_POSE);
  const { width, height } = scene.layout.size;
  const background = rgbaToYuva(scene.background!.data(), width, height);
  const buf = composedSource(scene, anim, new FramePool()).frame(0);
  return { frame: framePlanes(buf, width, height), background, caption: scene.layout.caption };
}

const meanDiff = (a: Uint8Array, b: Uint8Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
};

/** Box of the luma pixels that stand out from the background, outside the caption box: the presenter. */
function presenterBox(f: Target, bg: Target, caption: Rect): { x0: number; y0: number; x1: number; y1: number } {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < f.height; y++) {
    for (let x = 0; x < f.width; x++) {
      if (x >= caption.x && x < caption.x + caption.width && y >= caption.y && y < caption.y + caption.height) continue;
      const i = y * f.width + x;
      if (Math.abs(f.y[i]! - bg.y[i]!) <= 24) continue;
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  return { x0, y0, x1, y1 };
}

const CASES = TEMPLATES.flatMap((t) => ASPECT_RATIOS.map((a) => [t.id, a] as [string, AspectRatio]));

describe.skipIf(!existsSync(CHROMIUM))('the preview in Chromium and the video frame', () => {
  it('draws with the font files the engine reads, none of them copied into the build', async () => {
    await preview(publicTemplate(TEMPLATES[0]!, ''), fillParams(TEMPLATES[0]!.id, {}), 160, 90); // loads the fonts
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      const weight = (w: string) => ({ '400': 'normal', '700': 'bold' })[w] ?? w;
      return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family.replace(/"/g, '')} ${weight(f.weight)} ${f.style}`);
    });
    expect(loaded.sort()).toEqual(SCENE_FONTS.map((f) => `${f.family} ${f.weight} ${f.style}`).sort());
    expect(readdirSync(join(outDir, 'assets')).filter((f) => /\.(ttf|otf)$/.test(f))).toEqual([]);
  });

  it.each(CASES)('%s at %s show the same picture', async (templateId, aspect) => {
    const entry = TEMPLATES.find((t) => t.id === templateId)!;
    const params = fillParams(templateId, { aspectRatio: aspect });
    const { width, height } = outputSize(aspect, 720);
    const { frame, background, caption } = await videoFrame(templateId, params);
    const shown = await preview(publicTemplate(entry, ''), params, width, height);
    for (const plane of ["y", "u", "v"] as const) expect(meanDiff(shown[plane], frame[plane]), `${plane} plane`).toBeLessThan(1);
    // Each against its own rasteriser's background (text in a background may be hinted differently).
    const a = presenterBox(shown, await preview(publicTemplate(entry, ''), params, width, height, true), caption);
    const b = presenterBox(frame, background, caption);
    expect(b.x1, 'a presenter in the video').toBeGreaterThan(b.x0);
    for (const edge of ['x0', 'y0', 'x1', 'y1'] as const) expect(Math.abs(a[edge] - b[edge]), edge).toBeLessThanOrEqual(2);
  });
});
