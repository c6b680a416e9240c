// Pauses and pronunciation through the web shell against the real local studio: a pause is
// inserted from a button and shown as a chip (the script keeps its tag), a dictionary word is
// added in Settings and heard in the voice, the job carries the dictionary as its lexicon, and
// the job list downloads its captions as SRT without the tag and with the written word.
// Screenshots of the chip and the dictionary go to docs/img/.
import { expect, test } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { bridge, goTo, openApp } from './support/app.js';

test('insert a pause, add a dictionary word, render, download SRT', async ({ page }) => {
  await openApp(page);
  const script = page.getByLabel('Narration script');
  await script.fill('Our results for Q3 are in.');
  await script.press('End');
  await page.getByLabel('Pause length').selectOption('2');
  await page.getByRole('button', { name: 'Insert pause' }).click();
  await expect(script).toBeFocused();
  await page.keyboard.type('Revenue grew again.');
  await expect(script).toHaveValue('Our results for Q3 are in. <break time="2s"/> Revenue grew again.');
  const chip = page.getByTestId('pause-chip');
  await expect(chip).toHaveCount(1);
  await expect(chip).toHaveAttribute('data-label', '⏸ 2 s pause');
  // The tag is no text: not counted, not a caption.
  await expect(page.getByTestId('char-count')).toHaveText(/^4\d \/ 5,000 characters$/);
  await expect(page.getByTestId('caption-pages')).not.toContainText('break');
  mkdirSync('docs/img', { recursive: true });
  await page.locator('.panel.script').screenshot({ path: 'docs/img/pause-chip.png' });

  // Backspace right after the chip takes the whole tag.
  await script.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(45, 45));
  await page.keyboard.press('Backspace');
  await expect(script).toHaveValue('Our results for Q3 are in.  Revenue grew again.');
  await expect(page.getByTestId('pause-chip')).toHaveCount(0);
  await script.fill('Our results for Q3 are in. <break time="2s"/> Revenue grew again.');

  await goTo(page, 'Settings');
  const panel = page.getByRole('region', { name: 'Pronunciation' });
  await panel.getByLabel('Word').fill('Q3');
  await panel.getByLabel('How to say it').fill('the third quarter');
  await panel.getByRole('button', { name: 'Add' }).click();
  await expect(panel.getByRole('list', { name: 'Pronunciation dictionary' })).toContainText('Q3→the third quarter');
  await expect(panel.getByLabel('Word')).toHaveValue('');
  // Heard in the video's voice, through the voice-sample endpoint.
  await panel.getByRole('button', { name: 'Hear Q3' }).click();
  await expect(panel.getByRole('button', { name: 'Hear Q3' })).toHaveText('Playing…');
  await expect(panel.getByRole('button', { name: 'Hear Q3' })).toHaveText('Hear');
  await expect(panel.getByRole('alert')).toHaveCount(0);
  const heard = await bridge(page, 'voices.say', { voiceId: 'en-US-Ava', text: 'the third quarter' });
  expect(Buffer.from(heard.wavBase64, 'base64').subarray(0, 4).toString()).toBe('RIFF');
  // A word added twice keeps one entry; an empty "say" is refused and what was typed stays.
  await panel.getByLabel('Word').fill('nginx');
  await panel.getByRole('button', { name: 'Add' }).click();
  await expect(panel.getByRole('alert')).toContainText('How to say it must not be empty');
  await expect(panel.getByLabel('Word')).toHaveValue('nginx');
  await panel.getByLabel('How to say it').fill('engine x');
  await panel.getByRole('button', { name: 'Add' }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(2);
  await panel.screenshot({ path: 'docs/img/pronunciation.png' });
  await panel.getByRole('button', { name: 'Remove nginx' }).click();
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  expect((await bridge(page, 'settings.get', undefined)).pronunciation).toEqual([{ text: 'Q3', say: 'the third quarter' }]);

  await goTo(page, 'Create');
  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByTestId('last-job-status')).toBeVisible();
  const { jobs } = await bridge(page, 'jobs.list', {});
  const job = jobs[0]!;
  expect(job.lexicon).toEqual([{ text: 'Q3', say: 'the third quarter' }]);
  expect(job.text).toContain('<break time="2s"/>');

  await goTo(page, 'Jobs');
  const row = page.locator(`[data-job-id="${job.id}"]`);
  await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 100_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download captions as SRT' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.srt$/);
  const srt = readFileSync((await download.path())!, 'utf8');
  expect(srt).toMatch(/^1\r\n00:00:00,\d{3} --> 00:00:\d\d,\d{3}\r\nOur results for Q3 are in\.\r\n/);
  expect(srt).toContain('Revenue grew again.');
  expect(srt).not.toMatch(/break|third/);
});
