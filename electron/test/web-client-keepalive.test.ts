// A deletion sent as the page goes (the tab closes inside the Undo window) is not lost: in
// Debian's Chromium, with every connection to the web shell held by another tab's event
// streams, the DELETE cannot leave before the tab is closed; once a connection frees up, the
// browser still delivers it and the job is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { startWebShell, type WebShell } from '../web/server.js';
import { createKey, startApi, tempDir, waitFor, webShellOptions, type RunningApi } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Chromium's connections per host over HTTP/1.1. */
const CONNECTIONS_PER_HOST = 6;
let api: RunningApi;
let shell: WebShell;
let browser: Browser;
let context: BrowserContext;

type Studio = { studio: { call(m: string, i: unknown): Promise<unknown> } };
const call = (page: Page, method: string, input: unknown) =>
  page.evaluate(([m, i]) => (window as unknown as Studio).studio.call(m as string, i), [method, input] as const);

beforeAll(async () => {
  const apiData = tempDir('ps-api-');
  api = await startApi(apiData);
  shell = await startWebShell(webShellOptions(api.url, createKey(apiData, { service: true })));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  context = await browser.newContext(); // one cookie (one user) and one connection pool for both tabs
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await api?.stop();
});

describe.skipIf(!existsSync(CHROMIUM))('a deletion as the tab closes', () => {
  it('reaches the studio after the tab is gone', async () => {
    const tab = await context.newPage();
    await tab.goto(`${shell.url}/`);
    const { job } = (await call(tab, 'jobs.submit', { request: { text: 'Deleted as the tab closes.', templateId: 'newsroom', voiceId: 'en-US-Ava' } })) as { job: { id: string } };
    await tab.evaluate((id) => (window as unknown as Studio).studio.call('jobs.cancel', { id }).catch((e: { code?: string }) => e.code), job.id);
    await waitFor(async () => ['completed', 'failed', 'canceled'].includes(((await call(tab, 'jobs.get', { id: job.id })) as { status: string }).status), 'the job finished');

    // Another tab takes every connection to the web shell (event streams stay open).
    const other = await context.newPage();
    await other.goto(`${shell.url}/`);
    await other.evaluate(async (n) => {
      const opened = Array.from({ length: n }, () => new Promise((resolve) => (new EventSource('/bridge/events').onopen = resolve)));
      await Promise.all(opened);
    }, CONNECTIONS_PER_HOST);

    // The app's pagehide handler sends the DELETE; it waits for a connection, and the tab goes.
    await tab.evaluate((id) => void (window as unknown as Studio).studio.call('jobs.delete', { id }), job.id);
    await tab.close();
    await other.close(); // connections free up

    const check = await context.newPage();
    await check.goto(`${shell.url}/`);
    const gone = await waitFor(
      () => check.evaluate((id) => (window as unknown as Studio).studio.call('jobs.get', { id }).then(() => false, (e: { code?: string }) => e.code === 'not_found'), job.id),
      'the job deleted',
      10_000,
    );
    expect(gone).toBe(true);
  });
});
