// The web shell in Debian's Chromium against the local studio it started: the page gets
// window.studio from the injected client, submits a render over HTTP, follows it over SSE to
// the end, and plays the result through /media with byte ranges. The HttpOnly user cookie and
// the studio key stay out of the page's reach.
import { expect, test, type Page } from '@playwright/test';

type Studio = { call(m: string, i?: unknown): Promise<unknown>; subscribe(l: (e: unknown) => void): () => void };
const call = (page: Page, method: string, input?: unknown) =>
  page.evaluate(([m, i]) => (window as unknown as { studio: Studio }).studio.call(m as string, i), [method, input] as const);

test('a browser completes a render against the local studio', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible({ timeout: 60_000 });
  expect(await call(page, 'app.info')).toMatchObject({ shell: 'web' });
  expect(await call(page, 'studio.status')).toMatchObject({ state: 'running' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('ps_uid'); // HttpOnly

  // Collect live events in the page, then submit.
  await page.evaluate(() => {
    const w = window as unknown as { studio: Studio; __events: { type: string; job?: { id: string; status: string } }[] };
    w.__events = [];
    w.studio.subscribe((e) => w.__events.push(e as never));
  });
  const { job } = (await call(page, 'jobs.submit', { request: { text: 'Hello from the browser test.', templateId: 'social-short', voiceId: 'en-GB-Sonia' } })) as { job: { id: string } };

  const final = await expect
    .poll(
      async () => {
        const events = (await page.evaluate(() => (window as unknown as { __events: { type: string; job?: { id: string; status: string } }[] }).__events)).filter((e) => e.type === 'job' && e.job?.id === job.id);
        return events.at(-1)?.job?.status ?? 'none';
      },
      { timeout: 150_000, intervals: [500] },
    )
    .toMatch(/completed|failed|canceled/)
    .then(async () => (await call(page, 'jobs.get', { id: job.id })) as { status: string; error: { message: string } | null; output: { videoUrl: string; thumbnailUrl: string } | null });

  // The engine renders everywhere the tests run: a failed or canceled render fails this test.
  expect(final.error).toBeNull();
  expect(final.status).toBe('completed');
  expect(final.output!.videoUrl).toBe(`/media/local/jobs/${job.id}/video`);
  const probe = await page.evaluate(async (url) => {
    const r = await fetch(url, { headers: { range: 'bytes=0-99' } });
    return { status: r.status, size: (await r.arrayBuffer()).byteLength, type: r.headers.get('content-type') };
  }, final.output!.videoUrl);
  expect(probe).toEqual({ status: 206, size: 100, type: 'video/mp4' });
  const thumb = await page.evaluate(async (url) => (await fetch(url)).headers.get('content-type'), final.output!.thumbnailUrl);
  expect(thumb).toBe('image/jpeg');
});
