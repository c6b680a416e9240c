// Issue 12, the creator workflow's rough edges, one test per point, through the web shell in
// Chromium against the real local studio. (Points 3, 4 and 6 are checked on the privileged
// side in electron/test; point 10 is documentation.)
import { expect, test, type Page } from '@playwright/test';
import type { Job } from '../../shared/contract/index.js';
import { bridge, cancelIfActive, fieldPlacement, goTo, openApp, screenshot } from './support/app.js';

/** Jobs that are already over (canceled), made through the real bridge. */
async function finishedJobs(page: Page, texts: string[]): Promise<Job[]> {
  const csv = ['text,template,voice', ...texts.map((t) => `"${t}",newsroom,en-US-Ava`)].join('\n');
  const { rows } = await bridge(page, 'jobs.importCsv', { csv, mode: 'jobs' });
  const ids = rows.map((r) => r.jobId!);
  for (const id of ids) await cancelIfActive(page, id);
  return Promise.all(ids.map((id) => bridge(page, 'jobs.get', { id })));
}

const ids = async (page: Page) => (await bridge(page, 'jobs.list', { limit: 100 })).jobs.map((j) => j.id);

/** Renders the open draft and waits until its job is completed. */
async function renderAndWait(page: Page): Promise<Job> {
  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByTestId('last-job-status')).toBeVisible();
  const job = await expect
    .poll(async () => (await bridge(page, 'jobs.list', { limit: 1 })).jobs[0]?.status, { timeout: 150_000, intervals: [500] })
    .toMatch(/completed|failed|canceled/)
    .then(async () => (await bridge(page, 'jobs.list', { limit: 1 })).jobs[0]!);
  expect(job.status, job.error?.message).toBe('completed');
  return job;
}

test('point 1: deleting jobs hides them with an Undo window; the DELETE is sent when it closes', async ({ page }) => {
  await openApp(page);
  const [a, b, c] = await finishedJobs(page, ['First job to delete.', 'Second job to delete.', 'Third job to delete.']);
  await goTo(page, 'Jobs');
  const list = page.getByTestId('job-list');
  await expect(list.locator('[data-job-id]')).toHaveCount(3);

  // One row: gone at once, still on the server, back with Undo.
  await list.locator(`[data-job-id="${a!.id}"]`).getByRole('button', { name: 'Delete job' }).click();
  await expect(list.locator(`[data-job-id="${a!.id}"]`)).toHaveCount(0);
  expect(await ids(page)).toContain(a!.id);
  await page.getByRole('status').filter({ hasText: 'Deleted “First job to delete.”' }).getByRole('button', { name: 'Undo' }).click();
  await expect(list.locator(`[data-job-id="${a!.id}"]`)).toBeVisible();
  await page.waitForTimeout(9000); // past the Undo window: nothing was sent
  expect(await ids(page)).toContain(a!.id);

  // Bulk: the same Undo.
  await page.getByLabel('Select all shown jobs').check();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await expect(list.locator('[data-job-id]')).toHaveCount(0);
  await page.getByRole('status').filter({ hasText: 'Deleted 3 jobs.' }).getByRole('button', { name: 'Undo' }).click();
  await expect(list.locator('[data-job-id]')).toHaveCount(3);
  expect(await ids(page)).toEqual(expect.arrayContaining([a!.id, b!.id, c!.id]));

  // Left alone, the notice times out and the DELETE goes.
  await list.locator(`[data-job-id="${b!.id}"]`).getByRole('button', { name: 'Delete job' }).click();
  await expect(list.locator(`[data-job-id="${b!.id}"]`)).toHaveCount(0);
  await expect.poll(() => ids(page), { timeout: 20_000 }).not.toContain(b!.id);
  await expect(list.locator('[data-job-id]')).toHaveCount(2);
});

test('point 2: switching template keeps the placement and says what changed, with Undo', async ({ page }) => {
  await openApp(page);
  await page.getByRole('radio', { name: /^Newsroom/ }).click();
  await page.locator('#placement-x').fill('0.3');
  await page.locator('#placement-x').press('Enter');
  await page.getByRole('radiogroup', { name: 'Aspect ratio' }).getByRole('radio', { name: '9:16' }).click();
  // Each ratio keeps a placement of its own: 9:16 starts at the template's and is moved too.
  expect((await fieldPlacement(page)).x).not.toBe(0.3);
  await page.locator('#placement-x').fill('0.3');
  await page.locator('#placement-x').press('Enter');

  // Product Launch has 9:16: nothing to say, everything kept.
  await page.getByRole('radio', { name: /^Product Launch/ }).click();
  await expect(page.getByRole('radiogroup', { name: 'Aspect ratio' }).getByRole('radio', { name: '9:16' })).toBeChecked();
  expect((await fieldPlacement(page)).x).toBe(0.3);

  // Classroom has no 9:16: the ratio changes, with a notice that says so, and Undo.
  await page.getByRole('radio', { name: /^Classroom/ }).click();
  expect((await fieldPlacement(page)).x).toBe(0.3);
  await expect(page.getByRole('radiogroup', { name: 'Aspect ratio' }).getByRole('radio', { name: '16:9' })).toBeChecked();
  const notice = page.getByRole('status').filter({ hasText: 'Classroom has no 9:16: the video is now 16:9.' });
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('radio', { name: /^Product Launch/ })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('radiogroup', { name: 'Aspect ratio' }).getByRole('radio', { name: '9:16' })).toBeChecked();
  expect((await fieldPlacement(page)).x).toBe(0.3);
});

test('point 5: the web shell shows its connection read-only and says where it is configured', async ({ page }) => {
  await openApp(page);
  await goTo(page, 'Settings');
  await expect(page.getByTestId('server-configured')).toContainText('RENDER_API_BASE_URL');
  await expect(page.getByRole('button', { name: 'Add and test' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Base URL' })).toHaveCount(0);
  await screenshot(page, 'workflow-settings-web');
});

test('point 7: downloads are named from the title and the date', async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Script name').fill('Quarterly update: Q3/Q4?');
  await page.getByLabel('Narration script').fill('Hello.');
  const job = await renderAndWait(page);
  await goTo(page, 'Jobs');
  const row = page.getByTestId('job-list').locator(`[data-job-id="${job.id}"]`);
  const date = job.createdAt.slice(0, 10);
  const [video] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download video' }).click()]);
  expect(video.suggestedFilename()).toBe(`Quarterly update Q3 Q4 – ${date}.mp4`);
  const [captions] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download captions', exact: true }).click()]);
  expect(captions.suggestedFilename()).toBe(`Quarterly update Q3 Q4 – ${date}.vtt`);
});

test("point 8: job rows carry the draft's name; Duplicate names the copy without cutting words", async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Script name').fill('Quarterly update');
  await page.getByLabel('Narration script').fill('Welcome to the quarterly update, where the numbers tell a story.');
  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByTestId('last-job-status')).toBeVisible();
  await goTo(page, 'Jobs');
  const row = page.getByTestId('job-list').locator('[data-job-id]').first();
  await expect(row.getByTestId('job-title')).toContainText(/^Quarterly update — Welcome to the quarterly update/);
  await screenshot(page, 'workflow-job-title');
  await row.getByRole('button', { name: 'Duplicate into the editor' }).click();
  await expect(page.getByLabel('Script name')).toHaveValue('Quarterly update (copy)');
  // A job may finish between the list and its cancel (409): then there is nothing left to cancel.
  for (const j of (await bridge(page, 'jobs.list', { status: ['queued', 'rendering'] })).jobs) await cancelIfActive(page, j.id);
  await expect.poll(async () => (await bridge(page, 'jobs.list', { status: ['queued', 'rendering'] })).jobs.length).toBe(0);

  // A job without a title: the copy is named by the script's first words, never cut inside one.
  const [untitled] = await finishedJobs(page, ['Our brand new presenter studio makes explainer videos quickly and without any hassle at all.']);
  await goTo(page, 'Jobs');
  await page.getByTestId('job-list').locator(`[data-job-id="${untitled!.id}"]`).getByRole('button', { name: 'Duplicate into the editor' }).click();
  await expect(page.getByLabel('Script name')).toHaveValue('Our brand new presenter studio makes explainer videos (copy)');
});

test('point 11: keyboard — skip link, one Tab stop for the drafts and one for the voice samples', async ({ page }) => {
  await openApp(page);
  for (const name of ['Alpha', 'Beta', 'Gamma']) await bridge(page, 'drafts.save', { version: 3, name, templateId: 'newsroom', voiceId: 'en-US-Ava', params: {}, placements: {}, presenterId: null, scenes: [{ id: 's_1', text: `${name} script.`, background: null, presenter: true, avatar: null, placements: {}, presenterId: null, transition: 'cut', minSeconds: null }] });
  await page.reload();
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();

  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to editor' })).toBeFocused();
  await screenshot(page, 'workflow-skip-link');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Narration script')).toBeFocused();

  const drafts = page.getByRole('complementary', { name: 'Drafts' });
  const rows = drafts.locator('.draft-open');
  await expect(rows).toHaveCount(3);
  await expect(drafts.locator('.draft-list [tabindex="0"], .draft-list button:not([tabindex="-1"])')).toHaveCount(1);
  await rows.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('.draft-list'))).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(rows.nth(1)).toBeFocused(); // the list remembers where you were

  const samples = page.getByRole('button', { name: /^Play .*'s sample$/ });
  expect(await samples.count()).toBeGreaterThan(2);
  await samples.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(samples.nth(1)).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).not.toMatch(/sample$/);
});
