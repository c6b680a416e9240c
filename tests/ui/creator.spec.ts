// The creator's main path through the web shell against the real local studio: write a
// script, pick a template and a voice, place the presenter, render, watch the job, play it.
import { expect, test } from '@playwright/test';
import { bridge, canvasPlacement, fieldPlacement, goTo, openApp, recordedStatuses, recordStatuses } from './support/app.js';

test('write, place, render, watch the job and play the video', async ({ page }) => {
  await openApp(page);
  const script = 'Hello from the studio. This is a short test of the presenter.';
  await page.getByLabel('Narration script').fill(script);
  await expect(page.getByTestId('char-count')).toHaveText(`${script.length} / 5,000 characters`);

  await page.getByRole('radio', { name: /^Classroom/ }).click();
  await expect(page.getByRole('radio', { name: /^Classroom/ })).toHaveAttribute('aria-checked', 'true');
  // Voices are found by either id form; the sample plays through the studio.
  await page.getByLabel('Search voices').fill('102');
  await expect(page.locator('.voice-row')).toHaveCount(1);
  await page.getByRole('button', { name: "Play Andrew's sample" }).click();
  await expect.poll(() => page.getByTestId('voice-sample-audio').evaluate((a: HTMLAudioElement) => a.duration), { timeout: 20_000 }).toBeGreaterThan(0.3);
  await page.getByRole('radio', { name: /^Andrew/ }).check();
  await expect(page.getByTestId('selected-voice')).toContainText('Andrew');
  // Classroom has no 9:16; 4:3 is offered.
  const ratios = page.getByRole('radiogroup', { name: 'Aspect ratio' });
  await expect(ratios.getByRole('radio', { name: '9:16' })).toBeDisabled();
  await ratios.getByRole('radio', { name: '4:3' }).click();
  await expect.poll(async () => (await canvasPlacement(page)).aspectRatio).toBe('4:3');

  // Drag the presenter by its middle, with snapping off (Alt), then nudge with the keyboard.
  const stage = page.getByTestId('stage');
  const box = (await stage.boundingBox())!;
  const before = await canvasPlacement(page);
  const from = { x: box.x + before.x * box.width, y: box.y + before.y * box.height };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.keyboard.down('Alt');
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + i * 17, from.y - i * 4);
  await page.mouse.up();
  await page.keyboard.up('Alt');
  const dragged = await canvasPlacement(page);
  expect(dragged.x).toBeCloseTo(before.x + 170 / box.width, 2);
  expect(dragged.y).toBeCloseTo(before.y - 40 / box.height, 2);
  await expect.poll(() => fieldPlacement(page)).toEqual({ x: dragged.x, y: dragged.y, scale: dragged.scale });

  await stage.focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await canvasPlacement(page)).x).toBeCloseTo(dragged.x - 0.05, 3);
  // The wheel scales, held to the contract's range.
  await page.mouse.move(box.x + dragged.x * box.width - 0.05 * box.width, box.y + dragged.y * box.height);
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -400);
  await expect.poll(async () => (await canvasPlacement(page)).scale).toBe(1.5);
  await page.locator('#placement-scale').fill('0.55');
  await page.locator('#placement-scale').press('Enter');
  await expect.poll(async () => (await canvasPlacement(page)).scale).toBe(0.55);
  const shown = await canvasPlacement(page);
  expect(await fieldPlacement(page)).toEqual({ x: shown.x, y: shown.y, scale: shown.scale });

  // Render with Ctrl+Enter from the script, and follow the job.
  await recordStatuses(page);
  await page.getByLabel('Narration script').press('Control+Enter');
  await expect(page.getByTestId('last-job-status')).toBeVisible();

  const { jobs } = await bridge(page, 'jobs.list', {});
  expect(jobs).toHaveLength(1);
  const job = jobs[0]!;
  // The parameters sent are what the canvas showed.
  expect(job.params).toEqual({
    aspectRatio: '4:3', avatar: { x: shown.x, y: shown.y, scale: shown.scale }, resolution: '720p', captions: 'burned', captionPosition: 'auto',
  });
  expect(job.templateId).toBe('classroom');
  expect(job.voiceId).toBe('en-US-Andrew');

  await goTo(page, 'Jobs');
  const row = page.locator(`[data-job-id="${job.id}"]`);
  await expect(row).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 100_000 });
  const seen = await recordedStatuses(page);
  expect(seen[0]).toBe('Queued');
  expect(seen.some((s) => /^Rendering \d+%$/.test(s))).toBe(true);
  expect(seen.some((s) => /^Rendering ([1-9]\d?)%$/.test(s))).toBe(true); // progress between 0 and 100
  expect(seen[seen.length - 1]).toBe('Completed');

  await row.getByRole('button', { name: 'Play' }).click();
  const video = page.getByTestId('player');
  await expect(video).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
  expect(duration).toBeGreaterThan(1);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([960, 720]);
});

test('a failed submit keeps the script and says what was wrong', async ({ page }) => {
  await openApp(page);
  const text = '   ';
  await page.getByLabel('Narration script').fill(text);
  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Script must not be empty' })).toBeVisible();
  await page.getByLabel('Narration script').fill('x'.repeat(5001));
  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'at most 5000 characters' })).toBeVisible();
  await expect(page.getByLabel('Narration script')).toHaveValue('x'.repeat(5001));
  expect((await bridge(page, 'jobs.list', {})).jobs).toHaveLength(0);
});
