// The job list: CSV batch import with a per-row report, and multi-select cancel.
import { expect, test } from '@playwright/test';
import { bridge, cancelIfActive, goTo, openApp } from './support/app.js';

test('CSV import into drafts reports the bad row by its line, imports nothing, then the fixed file', async ({ page }) => {
  await openApp(page);
  await goTo(page, 'Jobs');
  await page.getByRole('button', { name: 'Import CSV…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import scripts from CSV' });
  const lines = [
    'text,template,voice,aspect,x,y,scale',
    '"Welcome, everyone, to the update.",newsroom,en-US-Ava,16:9,0.7,0.6,0.6',
    'Second row has problems,no-such-template,en-US-Ava,16:9,0.5,0.5,3',
    'Third row is fine,classroom,102,,,,',
    'Classroom has no 9:16,classroom,102,9:16,,,',
  ];
  await dialog.getByLabel('CSV text').fill(lines.join('\n'));
  await dialog.getByLabel(/Drafts/).check();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByTestId('csv-report')).toContainText('Nothing imported: 2 rows have problems');
  await expect(dialog.getByTestId('csv-row-3')).toContainText('scale');
  await expect(dialog.getByTestId('csv-row-5')).toContainText('supports 16:9, 4:3, 1:1');
  await expect(dialog.getByTestId('csv-row-2')).toContainText('No problems');
  expect(await bridge(page, 'drafts.list', {})).toHaveLength(0);

  // More rows than the shell ever takes at once: said in words, and the earlier report is gone.
  await dialog.getByLabel('CSV text').fill([lines[0], ...Array.from({ length: 1001 }, () => lines[1])].join('\r'));
  await dialog.getByLabel(/Jobs/).check();
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('alert')).toContainText('This makes 1001 renders at once');
  await expect(dialog.getByRole('alert')).not.toContainText('Try again in');
  await expect(dialog.getByTestId('csv-report')).toHaveCount(0);
  expect((await bridge(page, 'jobs.list', {})).jobs).toHaveLength(0);
  await dialog.getByLabel(/Drafts/).check();

  await dialog.getByLabel('CSV text').fill([lines[0], lines[1], lines[3]].join('\n'));
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByTestId('csv-report')).toContainText('2 rows imported');
  await expect(dialog.getByTestId('csv-row-2')).toContainText('draft created');
  await expect(dialog.getByTestId('csv-row-3')).toContainText('draft created');
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  const drafts = await bridge(page, 'drafts.list', {});
  expect(drafts).toHaveLength(2);
  await goTo(page, 'Create');
  await expect(page.getByRole('complementary', { name: 'Drafts' }).locator('.draft-open')).toHaveCount(2);
  expect((await bridge(page, 'jobs.list', {})).jobs).toHaveLength(0);
});

test('select many jobs and cancel them at once', async ({ page }) => {
  await openApp(page);
  const long = 'This sentence makes the narration long enough to take a while to render. '.repeat(25);
  const csv = ['text,template,voice', ...[1, 2, 3, 4, 5].map((i) => `"Job ${i}. ${long}",newsroom,en-US-Ava`)].join('\n');
  const { rows } = await bridge(page, 'jobs.importCsv', { csv, mode: 'jobs' });
  expect(rows.every((r) => r.ok)).toBe(true);

  await goTo(page, 'Jobs');
  const list = page.getByTestId('job-list');
  await expect(list.locator('[data-job-id]')).toHaveCount(5);
  await expect(page.getByTestId('chip-queued')).not.toContainText(/\b0\b/);
  await page.getByLabel('Select all shown jobs').check();
  await expect(page.getByText('5 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel selected' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Canceled [1-5] jobs?\./ })).toBeVisible();

  // Nothing is left waiting or rendering; every job the list shows agrees with the studio.
  await expect(list.locator('[data-status="queued"], [data-status="rendering"]')).toHaveCount(0, { timeout: 15_000 });
  const { jobs, counts } = await bridge(page, 'jobs.list', {});
  expect(jobs.filter((j) => j.status === 'canceled').length).toBeGreaterThanOrEqual(3);
  for (const j of jobs) await expect(list.locator(`[data-job-id="${j.id}"]`)).toHaveAttribute('data-status', j.status);
  await expect(page.getByTestId('chip-canceled')).toContainText(String(counts.canceled));
  await expect(page.getByTestId('chip-queued')).toContainText('0');

  // A canceled job can be retried (a new job) or copied into the editor as a new draft.
  const canceled = jobs.find((j) => j.status === 'canceled')!;
  const row = list.locator(`[data-job-id="${canceled.id}"]`);
  await row.getByRole('button', { name: 'Retry job' }).click();
  await expect(list.locator('[data-job-id]')).toHaveCount(6);
  await row.getByRole('button', { name: 'Duplicate into the editor' }).click();
  await expect(page.getByLabel('Narration script')).toHaveValue(canceled.text);
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  // Leave the shared studio idle for the next test (a job may finish before its cancel: nothing left to cancel).
  for (const j of (await bridge(page, 'jobs.list', { status: ['queued', 'rendering'] })).jobs) await cancelIfActive(page, j.id);
});
