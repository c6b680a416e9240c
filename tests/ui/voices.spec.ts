// The voice picker against the real local studio's catalog: every voice shows its quality tier
// and engine, the quality filter narrows the list, the gender filter offers only genders that
// some voice has, and a SVOX Pico voice's sample plays through the studio.
import { expect, test } from '@playwright/test';
import { bridge, openApp, screenshot } from './support/app.js';

test('the voice picker labels, filters by quality and plays a Pico voice', async ({ page }) => {
  await openApp(page);
  const rows = page.locator('.voice-row');
  const { voices } = await bridge(page, 'catalogs.get', undefined);
  await expect(rows).toHaveCount(voices.length);
  expect(voices.length).toBeGreaterThanOrEqual(24);
  // A new draft starts with the best voice that ships for the browser's language (en-US here):
  // SVOX Pico's Lisa, not the first, formant voice in the list.
  await expect(page.locator('.voice-row', { has: page.getByRole('radio', { checked: true }) })).toContainText('Lisa');

  // Gender: only what exists (the catalog has no neutral voice).
  const genders = await page.getByLabel('Gender').locator('option').allTextContents();
  expect(genders).toEqual(['Any gender', 'Female', 'Male']);

  // Quality: the tiers the catalog has, best first; choosing one narrows the list to it.
  await expect(page.getByLabel('Quality').locator('option')).toHaveText(['Any quality', 'Natural', 'Standard', 'Basic']);

  // Natural: the neural voices, each offered as a download with its size and the terms of its data;
  // a sample needs the voice itself, so it asks for the download first instead of fetching 63 MB.
  await page.getByLabel('Quality').selectOption({ label: 'Natural' });
  const natural = voices.filter((v) => v.quality === 'natural');
  expect(natural.length).toBeGreaterThanOrEqual(5);
  await expect(rows).toHaveCount(natural.length);
  const thorsten = page.locator('.voice-row', { hasText: 'Thorsten' });
  await expect(thorsten.getByRole('button', { name: /^Download 63 MB$/ })).toBeVisible();
  await expect(thorsten.locator('.voice-licence')).toHaveText('CC0 data (Thorsten-Voice)');
  await page.getByRole('button', { name: "Play Thorsten's sample" }).click();
  await expect(page.getByText('Download Thorsten to hear a sample')).toBeVisible();
  await screenshot(page, 'voice-picker-natural');

  await page.getByLabel('Quality').selectOption({ label: 'Standard' });
  const standard = voices.filter((v) => v.quality === 'standard');
  await expect(rows).toHaveCount(standard.length);
  for (const label of await page.getByTestId('voice-quality').allTextContents()) expect(['Standard · SVOX Pico', 'Standard · Flite']).toContain(label);

  // Combined with the language filter: Italian, standard quality → Chiara alone.
  await page.getByLabel('Language').selectOption('it-IT');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Chiara');
  await page.getByRole('button', { name: "Play Chiara's sample" }).click();
  await expect.poll(() => page.getByTestId('voice-sample-audio').evaluate((a: HTMLAudioElement) => a.duration), { timeout: 30_000 }).toBeGreaterThan(0.5);
  await page.getByRole('radio', { name: /^Chiara/ }).check();
  await expect(page.getByTestId('selected-voice')).toContainText('Chiara');

  // Back to every quality: the basic espeak voices are labelled too.
  await page.getByLabel('Quality').selectOption({ label: 'Any quality' });
  await expect(rows).toHaveCount(voices.filter((v) => v.locale === 'it-IT').length);
  await expect(page.getByTestId('voice-quality')).toContainText(['Standard · SVOX Pico', 'Basic · eSpeak NG', 'Basic · eSpeak NG']);
});
