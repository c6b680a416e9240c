// What a new user meets, through the real web shell and local studio: the voice list opens on
// the chosen voice with the best voices first, and a voice that needs its download holds the
// render before anything is sent, offering the download in the render bar.
import { expect, test } from '@playwright/test';
import { bridge, openApp, screenshot } from './support/app.js';

test('the voice list opens on the chosen voice, best first; a voice to download holds the render', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openApp(page);
  const list = page.locator('.voice-list');
  const chosen = list.locator('.voice-row', { has: page.getByRole('radio', { checked: true }) });
  await expect(chosen).toContainText('Lisa');
  await list.evaluate((el) => el.closest('section')!.scrollIntoView()); // the page, not the list
  await expect(chosen).toBeInViewport({ ratio: 1 });
  await expect(list.locator('.voice-row').first()).toContainText('Natural');
  await screenshot(page, 'steady-voices-light');

  await page.getByLabel('Narration script').fill('Hello from a voice that is not here yet.');
  await page.getByRole('radio', { name: /Linda/ }).check();
  await page.getByRole('button', { name: /Render video/ }).click();
  const bar = page.locator('.render-bar');
  await expect(bar).toContainText('Linda needs its voice download before it can render.');
  await expect(bar.getByRole('button', { name: /^Download \d+ MB$/ })).toBeVisible();
  await screenshot(page, 'steady-voice-download-light');
  expect((await bridge(page, 'jobs.list', {})).jobs).toHaveLength(0);
});
