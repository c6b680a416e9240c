// Scenes in the real app (Chromium through the web shell, the local studio behind it): build a
// video of three scenes, one over an uploaded picture and one without the presenter; reorder
// with Alt+arrows, delete and bring back with Ctrl+Z; the draft keeps them. Screenshots of the
// strip and inspector go to test-results/screenshots/ for people to look at.
import { expect, test, type Page } from '@playwright/test';
import { bridge, openApp, screenshot } from './support/app.js';

/**
 * Uploads a picture drawn in the page (a warm gradient with bars, 1280×720) into the media
 * library.
 */
async function uploadPicture(page: Page, name: string): Promise<string> {
  const refused = await page.evaluate(async (fileName) => {
    const c = document.createElement('canvas');
    c.width = 1280;
    c.height = 720;
    const ctx = c.getContext('2d')!;
    const g = ctx.createLinearGradient(0, 0, 1280, 720);
    g.addColorStop(0, '#ffb347');
    g.addColorStop(1, '#ff5e62');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, 1280, 720);
    ctx.fillStyle = 'rgba(255,255,255,0.9)';
    ctx.font = 'bold 96px sans-serif';
    ctx.fillText('Q3 results', 80, 200);
    for (let i = 0; i < 6; i++) ctx.fillRect(120 + i * 180, 640 - (i + 2) * 50, 110, (i + 2) * 50);
    const blob = await new Promise<Blob>((ok) => c.toBlob((b) => ok(b!), 'image/png'));
    const studio = (window as unknown as { studio: { upload(f: File): Promise<unknown> } }).studio;
    try {
      await studio.upload(new File([blob], fileName, { type: 'image/png' }));
      return null;
    } catch (e) {
      return (e as { code?: string }).code ?? String(e);
    }
  }, name);
  expect(refused).toBeNull();
  let id = '';
  await expect
    .poll(async () => {
      const r = await bridge(page, 'assets.list', { q: name });
      id = r.assets.find((a) => a.name === name)?.id ?? '';
      return id;
    }, { timeout: 30_000 })
    .not.toBe('');
  return id;
}

const card = (page: Page, n: number) => page.getByRole('list', { name: /Scenes/ }).getByRole('button', { name: new RegExp(`^Scene ${n}\\b`) });
const narration = (page: Page) => page.getByLabel(/^Narration/);

test('a video of three scenes: build, reorder, undo a delete', async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Script name').fill('Quarterly update');
  await narration(page).fill('Welcome to the quarterly update. Here is how the quarter went.');
  await page.getByRole('button', { name: 'Add scene' }).click();
  await narration(page).fill('Revenue grew twelve percent, led by the new studio in Lisbon.');
  const picture = await uploadPicture(page, 'q3-results.png');
  const background = page.getByRole('combobox', { name: 'Background' });
  await background.click(); // the list of files is read when the picker is first used
  await expect(background.locator(`option[value="${picture}"]`)).toHaveCount(1);
  await background.selectOption(picture);
  await expect(page.getByTestId('stage-scene')).toHaveAttribute('data-background', 'asset');
  await page.getByRole('radio', { name: 'Fade' }).click();
  await page.getByRole('button', { name: 'Add scene' }).click();
  await narration(page).fill('Thank you for watching. See you next quarter.');
  await page.getByLabel('Presenter in this scene').uncheck();
  await expect(page.getByTestId('stage-scene')).toHaveAttribute('data-presenter', 'false');
  await page.getByRole('radio', { name: 'Slide' }).click();

  // Reorder: the closing scene one place left, then back.
  await card(page, 3).focus();
  await page.keyboard.press('Alt+ArrowLeft');
  await expect(card(page, 2)).toHaveAttribute('aria-label', /Thank you/);
  await page.keyboard.press('Alt+ArrowRight');
  await expect(card(page, 3)).toHaveAttribute('aria-label', /Thank you/);

  // Delete the first scene; Ctrl+Z brings it back.
  await card(page, 1).click();
  await page.getByRole('button', { name: 'Delete scene 1' }).click();
  await expect(page.getByRole('list', { name: /Scenes/ }).getByRole('listitem')).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await expect(page.getByRole('list', { name: /Scenes/ }).getByRole('listitem')).toHaveCount(3);
  await expect(card(page, 1)).toHaveAttribute('aria-label', /Welcome/);

  await card(page, 2).click();
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  const drafts = await bridge(page, 'drafts.list', {});
  const saved = (await bridge(page, 'drafts.get', { id: drafts[0]!.id })) as unknown as { scenes: { text: string; presenter: boolean; background: unknown }[] };
  expect(saved.scenes.map((s) => s.text.split(' ')[0])).toEqual(['Welcome', 'Revenue', 'Thank']);
  expect(saved.scenes[2]!.presenter).toBe(false);
  if (picture) expect(saved.scenes[1]!.background).toMatchObject({ assetId: picture, fit: 'cover' });
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.locator('.create-main').evaluate((el) => el.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Dismiss' }).first().click().catch(() => undefined);
  await page.waitForTimeout(500); // thumbnails are drawn when the page is idle
  await screenshot(page, 'scenes-light');
  await card(page, 3).click();
  await expect(page.getByTestId('presenter-off')).toBeVisible();
  await screenshot(page, 'scenes-no-presenter-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await card(page, 2).click();
  await page.waitForTimeout(300);
  await screenshot(page, 'scenes-dark');
});
