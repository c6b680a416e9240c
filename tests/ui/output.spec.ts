// Output settings through the web shell against the real local studio: render at 1080p with
// captions as a file only, then pick the thumbnail on the finished job's scrubber. The output
// panel and the player with its thumbnail picker go to docs/img/.
import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { bridge, goTo, openApp } from './support/app.js';

test('render at 1080p with captions as a file only, then choose the thumbnail', async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Narration script').fill('Hello there. This video leaves its captions in a file.');
  await page.getByRole('radio', { name: /^Newsroom/ }).click();
  const output = page.locator('section.output-settings');
  await output.getByRole('radiogroup', { name: 'Resolution' }).getByRole('radio', { name: '1080p' }).click();
  await expect(output.getByText('1920×1080')).toBeVisible();
  await output.getByRole('radiogroup', { name: 'Captions' }).getByRole('radio', { name: 'File only' }).click();
  // Only burned captions have a place in the frame.
  await expect(output.getByLabel('Caption position')).toBeDisabled();
  mkdirSync('docs/img', { recursive: true });
  await output.screenshot({ path: 'docs/img/output-settings.png' });

  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByTestId('last-job-status')).toBeVisible();
  const { jobs } = await bridge(page, 'jobs.list', {});
  const job = jobs[0]!;
  expect(job.params).toMatchObject({ resolution: '1080p', captions: 'file' });

  await goTo(page, 'Jobs');
  const row = page.locator(`[data-job-id="${job.id}"]`);
  await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await row.getByRole('button', { name: 'Play' }).click();
  const video = page.getByTestId('player');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([1920, 1080]);
  // The captions come as a file even though none are drawn.
  const dialog = page.locator('.dialog');
  await expect(dialog.getByRole('button', { name: 'Download captions' })).toBeVisible();

  const thumb = page.getByTestId('job-thumbnail');
  const before = await thumb.getAttribute('src');
  const slider = page.getByLabel('Thumbnail frame (seconds)');
  await slider.fill('1.5');
  await expect(page.getByText('Frame at 1.50 s')).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(1.5, 1);
  await page.getByRole('button', { name: 'Use this frame as the thumbnail' }).click();
  await expect(thumb).not.toHaveAttribute('src', before!);
  await expect(thumb).toHaveAttribute('src', /\?v=/);
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1920);
  const updated = await bridge(page, 'jobs.get', { id: job.id });
  expect(updated.output!.thumbnailUrl).toBe(await thumb.getAttribute('src'));
  // Tall enough for the whole dialog in the picture.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await dialog.screenshot({ path: 'docs/img/thumbnail-picker.png' });

  // Bad input through the bridge: a time past the end is refused in words, the picker keeps its place.
  const refused = await page.evaluate(async (id) => {
    try {
      await (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call('jobs.thumbnail', { id, at: 999 });
      return null;
    } catch (e) {
      return (e as { message?: string }).message ?? String(e);
    }
  }, job.id);
  expect(refused).toMatch(/at most/);
});
