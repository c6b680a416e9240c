// Screenshots of every main screen in light and dark, saved under test-results/screenshots/
// for people to look at; each screen is also checked to have loaded its content.
import { expect, test, type Page } from '@playwright/test';
import { bridge, goTo, openApp, screenshot } from './support/app.js';

async function seed(page: Page): Promise<void> {
  await page.getByLabel('Script name').fill('Quarterly update');
  await page.getByLabel('Narration script').fill(
    'Welcome to the quarterly update. Revenue grew twelve percent, and our new studio opened in Lisbon. Here is what comes next for the team.',
  );
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  const done = await bridge(page, 'jobs.submit', { request: { text: 'A short finished clip.', templateId: 'product-launch', voiceId: 'en-GB-Sonia' } });
  const long = 'A long narration that keeps the worker busy for a while. '.repeat(20);
  const canceled = await bridge(page, 'jobs.submit', { request: { text: `Canceled clip. ${long}`, templateId: 'classroom', voiceId: '102' } });
  await bridge(page, 'jobs.cancel', { id: canceled.job!.id });
  await bridge(page, 'jobs.submit', { request: { text: '', templateId: 'newsroom', voiceId: 'en-US-Ava' } }).catch(() => undefined);
  await expect.poll(async () => (await bridge(page, 'jobs.get', { id: done.job!.id })).status, { timeout: 60_000 }).toBe('completed');
}

for (const scheme of ['light', 'dark'] as const) {
  test(`main screens in ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await seed(page);
    // One caption screen at least per sentence (a sentence never runs into the next screen).
    await expect.poll(() => page.getByTestId('caption-pages').locator('li').count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, `create-${scheme}`);

    await goTo(page, 'Jobs');
    await expect(page.locator('[data-status="completed"]')).toHaveCount(1);
    await screenshot(page, `jobs-${scheme}`);

    await page.locator('[data-status="completed"]').getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => page.getByTestId('player').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    await page.getByTestId('player').evaluate((v: HTMLVideoElement) => {
      v.pause();
      v.currentTime = 1;
    });
    await page.waitForTimeout(300);
    await screenshot(page, `player-${scheme}`);
    await page.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Import CSV…' }).click();
    await page.getByLabel('CSV text').fill('text,template,voice\nHello there,newsroom,en-US-Ava\nBad row,nope,xx-XX-Nobody\n');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByTestId('csv-report')).toBeVisible();
    await screenshot(page, `csv-import-${scheme}`);
    await page.getByRole('button', { name: 'Close' }).first().click();

    await goTo(page, 'Settings');
    await expect(page.getByTestId('studio-status')).toContainText('running');
    await screenshot(page, `settings-${scheme}`);

    await goTo(page, 'Create');
    await page.getByRole('radio', { name: /^Social Short/ }).click();
    await page.getByRole('radiogroup', { name: 'Aspect ratio' }).getByRole('radio', { name: '9:16' }).click();
    await screenshot(page, `create-vertical-${scheme}`);
  });
}
