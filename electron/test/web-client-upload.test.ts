// window.studio.upload(file) in Debian's Chromium: a file from an <input type=file> streams
// through the web shell to the real render API;
// the page hears the progress and the outcome as `upload` events, and a refusal by the shell
// itself (over its size limit) reaches the page as one too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import type { UploadStatus } from '../../shared/bridge/index.js';
import type { AssetList } from '../../shared/contract/index.js';
import { picture } from '../../server/test/fixtures/media.js';
import { startWebShell, type WebShell } from '../web/server.js';
import { USER_COOKIE } from '../web/user-cookie.js';
import { askApi, createKey, ROOT, startApi, tempDir, waitFor, type RunningApi } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let KEY: string;
let api: RunningApi;
let shell: WebShell;
let browser: Browser;
let page: Page;

const uploads = () => page.evaluate(() => (window as unknown as { __up: UploadStatus[] }).__up);

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  const apiData = tempDir('ps-api-');
  KEY = createKey(apiData, { service: true });
  api = await startApi(apiData);
  const rendererDir = tempDir('ps-renderer-');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><input type="file" id="pick"><script type="module" src="./assets/app.js"></script></body></html>');
  writeFileSync(join(rendererDir, 'assets/app.js'), "window.__up = []; window.studio.subscribe((e) => e.type === 'upload' && window.__up.push(e.upload));");
  shell = await startWebShell({ port: 0, host: '127.0.0.1', root: ROOT, rendererDir, dataDir: tempDir('ps-web-'), version: '0.1.0', env: { baseUrl: api.url, key: KEY, keyHeader: 'bearer' }, localStudio: null, log: () => undefined, limits: { uploadMaxBytes: 64 * 1024 } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  page = await browser.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await api?.stop();
});

describe.skipIf(!existsSync(CHROMIUM))('studio.upload in the browser', () => {
  it('uploads a chosen file with progress events; a file over the shell limit fails as an event', async () => {
    await page.goto(`${shell.url}/`);
    await page.waitForFunction(() => Array.isArray((window as unknown as { __up?: unknown[] }).__up));
    const png = picture(320, 180, 'png');
    expect(png.length).toBeLessThan(64 * 1024);
    await page.setInputFiles('#pick', [{ name: 'Logo.png', mimeType: 'image/png', buffer: png }]);
    const started = await page.evaluate(() => (window as unknown as { studio: { upload(f: File): Promise<UploadStatus> } }).studio.upload((document.getElementById('pick') as HTMLInputElement).files![0]!));
    expect(started).toMatchObject({ name: 'Logo.png', sizeBytes: png.length, state: 'uploading' });
    expect(started.uploadId).toMatch(/^up_[0-9a-f]{32}$/);
    const done = await waitFor(async () => (await uploads()).find((u) => u.uploadId === started.uploadId && u.state === 'done'), 'the upload to finish in the page');
    expect(done.asset!.contentUrl).toMatch(/^\/media\//);
    // The API keeps the same bytes, for the user of this browser (the shell's service key names them).
    const userId = (await page.context().cookies()).find((c) => c.name === USER_COOKIE)!.value.split('.')[0]!;
    const kept = (await askApi<AssetList>(api.url, KEY, '/api/assets', { userId })).body.assets.find((a) => a.id === done.asset!.id);
    expect(kept).toMatchObject({ name: 'Logo.png', mediaType: 'image/png', sizeBytes: png.length, width: 320, height: 180 });
    const stored = await fetch(`${api.url}/api/assets/${kept!.id}/content`, { headers: { authorization: `Bearer ${KEY}`, 'x-user-id': userId } });
    expect(Buffer.from(await stored.arrayBuffer()).equals(png)).toBe(true);
    // The page shows the asset through the shell, never from the API.
    expect(await page.evaluate(async (u) => (await fetch(u)).status, done.asset!.thumbnailUrl)).toBe(200);

    await page.setInputFiles('#pick', [{ name: 'big.png', mimeType: 'image/png', buffer: Buffer.concat([png, Buffer.alloc(100_000)]) }]);
    const big = await page.evaluate(() => (window as unknown as { studio: { upload(f: File): Promise<UploadStatus> } }).studio.upload((document.getElementById('pick') as HTMLInputElement).files![0]!));
    const failed = await waitFor(async () => (await uploads()).find((u) => u.uploadId === big.uploadId && u.state === 'failed'), 'the refusal in the page');
    expect(failed.error).toMatchObject({ code: 'payload_too_large' });
  });
});
