// Music under the narration, end to end through the web shell in Chromium against the real
// local studio: pick a built-in track (imported into the media library on first use), turn it
// down, hear the scene mixed with it, render, and see the job complete with that music. A screenshot of the picker goes to
// docs/img/.
import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import type { Job } from '../../shared/contract/index.js';
import { bridge, openApp } from './support/app.js';

test('pick a built-in track, set its volume, render with it', async ({ page }) => {
  test.setTimeout(240_000);
  await openApp(page);
  const picker = page.getByTestId('music-picker');
  const select = picker.getByRole('combobox', { name: 'Music' });
  await expect(select).toHaveValue('');
  await expect(select.locator('optgroup[label="Made for Presenter Studio"] option')).toHaveCount(3);

  await select.selectOption({ label: 'Calm morning (24 s, loops)' });
  await expect(picker.getByTestId('selected-music')).toHaveText('Calm morning');
  // Imported into the media library once; picking it again uses the same asset.
  const imported = (await bridge(page, 'assets.list', { kind: 'audio' })).assets.filter((a) => a.name === 'Calm morning.mp3');
  expect(imported).toHaveLength(1);
  await expect(picker.getByTestId('music-volume')).toHaveText('25 %');
  await picker.getByRole('slider', { name: 'Music volume' }).fill('40');
  await expect(picker.getByTestId('music-volume')).toHaveText('40 %');
  await expect(picker.getByRole('checkbox', { name: 'Quieter under the voice' })).toBeChecked();

  await page.locator('#script-text').fill('Welcome to the show. The music plays softly under my voice.');
  // The estimate counts the video's start and end.
  await expect(page.getByTestId('video-duration')).toBeVisible();
  // The scene's narration with the music under it, mixed by the studio as the video will be.
  await picker.getByRole('button', { name: 'Hear scene 1 with the music' }).click();
  await expect(picker.getByRole('button', { name: 'Hear scene 1 with the music' })).toBeEnabled({ timeout: 60_000 });
  await expect(picker.locator('audio')).toHaveAttribute('src', /^blob:/);
  await expect(picker.getByRole('alert')).toHaveCount(0);
  await expect.poll(() => picker.locator('audio').evaluate((a) => (a as HTMLAudioElement).duration), { timeout: 10_000 }).toBeGreaterThan(2);
  mkdirSync('docs/img', { recursive: true });
  await picker.screenshot({ path: 'docs/img/music-picker.png' });

  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByTestId('last-job-status')).toBeVisible();
  await expect
    .poll(async () => (await bridge(page, 'jobs.list', { limit: 1 })).jobs[0]?.status, { timeout: 180_000, intervals: [1000] })
    .toMatch(/completed|failed|canceled/);
  const job: Job = (await bridge(page, 'jobs.list', { limit: 1 })).jobs[0]!;
  expect(job.status, job.error?.message).toBe('completed');
  expect(job.music).toEqual({ assetId: imported[0]!.id, volume: 0.4, duck: true });

  // Choosing it again after the render does not import it twice.
  await select.selectOption('');
  await select.selectOption({ label: 'Calm morning (24 s, loops)' });
  await expect(picker.getByTestId('selected-music')).toContainText('Calm morning');
  expect((await bridge(page, 'assets.list', { kind: 'audio' })).assets.filter((a) => a.name === 'Calm morning.mp3')).toHaveLength(1);
});
