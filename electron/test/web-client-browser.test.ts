// The browser bridge client in Debian's Chromium: window.studio works over HTTP + SSE, cannot
// be replaced by page code, the user cookie is out of the page's reach, and when the web shell
// goes away and comes back the page hears "offline", then "online" + "jobs-stale", and is
// still the same anonymous user (the cookie secret survives the restart).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { startWebShell, type WebShell } from '../web/server.js';
import { ROOT, createKey, freePort, startApi, tempDir, waitFor, type RunningApi } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let api: RunningApi;
let shell: WebShell | null = null;
let browser: Browser;
let page: Page;
let port: number;
let key: string;
const dataDir = tempDir('ps-web-');
const rendererDir = tempDir('ps-renderer-');

const start = async () =>
  (shell = await startWebShell({ port, host: '127.0.0.1', root: ROOT, rendererDir, dataDir, version: '0.1.0', env: { baseUrl: api.url, key, keyHeader: 'bearer' }, localStudio: null, log: () => undefined }));

type Ev = { type: string; online?: boolean; job?: { id: string } };
const events = () => page.evaluate(() => (window as unknown as { __ev: Ev[] }).__ev);
const call = (method: string, input?: unknown) => page.evaluate(([m, i]) => (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call(m as string, i), [method, input] as const);

beforeAll(async () => {
  const apiData = tempDir('ps-api-');
  key = createKey(apiData, { service: true });
  api = await startApi(apiData);
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body><script type="module" src="./assets/app.js"></script></body></html>');
  writeFileSync(join(rendererDir, 'assets/app.js'), 'window.__ev = []; window.studio.subscribe((e) => window.__ev.push(e));');
  port = await freePort();
  await start();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await api?.stop();
});

describe.skipIf(!existsSync(CHROMIUM))('the browser bridge client', () => {
  it('calls the bridge and receives live events; page code cannot replace it or read the cookie', async () => {
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => Array.isArray((window as unknown as { __ev?: unknown[] }).__ev));
    expect(await call('app.info')).toMatchObject({ shell: 'web' });
    const { job } = (await call('jobs.submit', { request: { text: 'From Chromium.', templateId: 'newsroom', voiceId: 'en-US-Ava' } })) as { job: { id: string } };
    await waitFor(async () => (await events()).some((e) => e.type === 'job' && e.job?.id === job.id), 'a job event in the page', 60_000);
    const tamper = await page.evaluate(() => {
      const w = window as unknown as { studio: unknown };
      const before = w.studio;
      try {
        w.studio = { call: () => 'evil' };
      } catch {
        // strict-mode pages throw; either way it must stay ours
      }
      return w.studio === before;
    });
    expect(tamper).toBe(true);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const err = await page.evaluate(() => (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call('jobs.get', { id: '' }).catch((e: unknown) => e));
    expect(err).toMatchObject({ code: 'invalid_input', message: expect.any(String) });
  });

  it('reports the web shell going away and coming back, as the same user', async () => {
    const before = ((await call('jobs.list', {})) as { jobs: { id: string }[] }).jobs.map((j) => j.id);
    expect(before).toHaveLength(1);
    await shell!.close();
    shell = null;
    await waitFor(async () => (await events()).some((e) => e.type === 'connection' && e.online === false), 'offline in the page', 30_000);
    await start();
    await waitFor(async () => (await events()).some((e) => e.type === 'jobs-stale'), 'jobs-stale in the page', 30_000);
    expect((await events()).some((e) => e.type === 'connection' && e.online === true)).toBe(true);
    const after = ((await call('jobs.list', {})) as { jobs: { id: string }[] }).jobs.map((j) => j.id);
    expect(after).toEqual(before);
  });
});
