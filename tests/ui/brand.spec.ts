// Brand and output in one creator's flow through the web shell in Chromium against the real
// local studio: drop a logo, create a kit (bad input is said in words and what was typed stays),
// apply it to the video with one click (its title and end cards become the first and last
// scenes), choose 1080p with captions as a file only, render, see the job carry the kit's brand
// and cards, pick the thumbnail on the finished job's scrubber; export and import the kit.
// Screenshots of the kit editor, the output panel and the thumbnail picker go to docs/img/.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createCanvas } from '@napi-rs/canvas';
import { mkdirSync, readFileSync } from 'node:fs';
import type { Job } from '../../shared/contract/index.js';
import { bridge, goTo, openApp } from './support/app.js';

function logo(): { name: string; mimeType: string; buffer: Buffer } {
  const c = createCanvas(400, 160);
  const g = c.getContext('2d');
  g.fillStyle = '#0b6fb8';
  g.beginPath();
  g.roundRect(0, 0, 400, 160, 40);
  g.fill();
  g.fillStyle = '#ffffff';
  g.font = 'bold 90px sans-serif';
  g.fillText('ACME', 60, 115);
  return { name: 'acme-logo.png', mimeType: 'image/png', buffer: c.toBuffer('image/png') };
}

async function dropFile(page: Page, target: Locator, f: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const data = await page.evaluateHandle(
    (file) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(file.b64), (c) => c.charCodeAt(0))], file.name, { type: file.mimeType }));
      return dt;
    },
    { name: f.name, mimeType: f.mimeType, b64: f.buffer.toString('base64') },
  );
  await target.dispatchEvent('dragenter', { dataTransfer: data });
  await target.dispatchEvent('dragover', { dataTransfer: data });
  await target.dispatchEvent('drop', { dataTransfer: data });
}

test('create a brand kit, apply it, render at 1080p with captions as a file only, pick the thumbnail', async ({ page }) => {
  test.setTimeout(300_000);
  await openApp(page);
  const library = page.getByTestId('media-library');
  await expect(library.getByText(/No files yet/)).toBeVisible();
  await dropFile(page, page.locator('body'), logo());
  await expect(library.getByRole('listitem', { name: 'acme-logo.png' })).toContainText('Picture');
  await page.locator('#script-text').fill('Welcome to Acme. Our numbers are in, and they look good.');

  const panel = page.getByRole('region', { name: 'Brand kit' });
  await panel.getByRole('button', { name: 'New kit' }).click();
  const editor = panel.getByRole('form', { name: 'Brand kit editor' });
  await editor.getByLabel('Name').fill('Acme');
  await editor.getByLabel('Logo (a picture from the media library)').selectOption({ label: 'acme-logo.png' });
  await editor.getByLabel('Logo corner').selectOption('top-left');
  await editor.getByLabel('Logo size (% of the width)').fill('40');
  await editor.getByLabel('Accent colour (#RRGGBB)').fill('pink');
  await editor.getByRole('button', { name: 'Save kit' }).click();
  // Said in words, next to each field; what was typed stays.
  await expect(editor.getByText("Logo size must be between 5 % and 30 % of the frame's width.")).toBeVisible();
  await expect(editor.getByText('Accent colour must be a colour written #RRGGBB.')).toBeVisible();
  await expect(editor.getByLabel('Logo size (% of the width)')).toHaveValue('40');
  await expect(editor.getByLabel('Accent colour (#RRGGBB)')).toHaveValue('pink');
  mkdirSync('docs/img', { recursive: true });
  await panel.screenshot({ path: 'docs/img/brand-kit-errors.png' });

  await editor.getByLabel('Logo size (% of the width)').fill('15');
  await editor.getByLabel('Accent colour (#RRGGBB)').fill('#E0218A');
  // A corrected field no longer says it is wrong.
  await expect(editor.getByText(/Logo size must be/)).toBeHidden();
  await expect(editor.getByText(/Accent colour must be/)).toBeHidden();
  await editor.getByLabel('Caption style').selectOption('box');
  await editor.getByLabel('Font').selectOption({ label: 'DejaVu Sans Bold' });
  await editor.getByLabel('Title card line (optional)').fill('Acme quarterly update.');
  await editor.getByLabel('End card call to action (optional)').fill('Visit acme.example today.');
  await panel.screenshot({ path: 'docs/img/brand-kit-editor.png' });
  await editor.getByRole('button', { name: 'Save kit' }).click();
  await expect(editor).toBeHidden();

  await panel.getByRole('button', { name: 'Apply to this video' }).click();
  await expect(panel.getByTestId('brand-applied')).toHaveText('Acme applied');
  // The title and end cards are the video's first and last scenes, editable like any other.
  await expect(page.getByRole('region', { name: /^Scenes/ }).locator('[data-scene-id]')).toHaveCount(3);
  await panel.screenshot({ path: 'docs/img/brand-kit.png' });
  // The preview draws the brand as the video will (shared/scene): the logo in its corner once loaded.
  await expect.poll(() => page.getByTestId('stage-scene').evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d')!;
    // The logo's blue at the top-left of the safe area, 6 % in plus a little.
    const [r, g, b] = ctx.getImageData(Math.round(c.width * 0.08), Math.round(c.height * 0.09), 1, 1).data;
    return Math.abs(r! - 0x0b) + Math.abs(g! - 0x6f) + Math.abs(b! - 0xb8) < 40;
  })).toBe(true);
  await page.getByTestId('stage-scene').scrollIntoViewIfNeeded();
  await page.getByTestId('stage-scene').screenshot({ path: 'docs/img/brand-preview.png' });

  const output = page.locator('section.output-settings');
  await output.getByRole('radiogroup', { name: 'Resolution' }).getByRole('radio', { name: '1080p' }).click();
  await expect(output.getByText('1920×1080')).toBeVisible();
  await output.getByRole('radiogroup', { name: 'Captions' }).getByRole('radio', { name: 'File only' }).click();
  // Only burned captions have a place in the frame.
  await expect(output.getByLabel('Caption position')).toBeDisabled();
  await output.screenshot({ path: 'docs/img/output-settings.png' });

  const logoId = (await bridge(page, 'assets.list', { kind: 'image' })).assets.find((a) => a.name === 'acme-logo.png')!.id;
  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByTestId('last-job-status')).toBeVisible();
  const jobId = (await bridge(page, 'jobs.list', { limit: 1 })).jobs[0]!.id;
  await goTo(page, 'Jobs');
  const row = page.locator(`[data-job-id="${jobId}"]`);
  await expect(row).toHaveAttribute('data-status', /completed|failed|canceled/, { timeout: 240_000 });
  const job: Job = await bridge(page, 'jobs.get', { id: jobId });
  expect(job.status, job.error?.message).toBe('completed');
  expect(job.params).toMatchObject({ resolution: '1080p', captions: 'file' });
  expect(job.scenes?.map((s) => [s.text, s.avatar, s.background?.assetId ?? null])).toEqual([
    ['Acme quarterly update.', null, logoId],
    ['Welcome to Acme. Our numbers are in, and they look good.', expect.objectContaining({ x: expect.any(Number) }), null],
    ['Visit acme.example today.', null, logoId],
  ]);
  expect(job.brand).toEqual({ logo: { assetId: logoId, position: 'top-left', size: 0.15 }, accentColor: '#E0218A', captionStyle: 'box', font: 'sans-bold' });

  // The finished job's player: a 1920×1080 video, its captions as a file though none are drawn.
  await row.getByRole('button', { name: 'Play' }).click();
  const video = page.getByTestId('player');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([1920, 1080]);
  const dialog = page.locator('.dialog');
  await expect(dialog.getByRole('button', { name: 'Download captions' })).toBeVisible();

  // The thumbnail chosen on the scrubber, made again from the video without a render.
  const thumb = page.getByTestId('job-thumbnail');
  const before = await thumb.getAttribute('src');
  await page.getByLabel('Thumbnail frame (seconds)').fill('1.5');
  await expect(page.getByText('Frame at 1.50 s')).toBeVisible();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(1.5, 1);
  await page.getByRole('button', { name: 'Use this frame as the thumbnail' }).click();
  await expect(thumb).not.toHaveAttribute('src', before!);
  await expect(thumb).toHaveAttribute('src', /\?v=/);
  await expect.poll(() => thumb.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(1920);
  expect((await bridge(page, 'jobs.get', { id: jobId })).output!.thumbnailUrl).toBe(await thumb.getAttribute('src'));
  // Tall enough for the whole dialog in the picture.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await dialog.screenshot({ path: 'docs/img/thumbnail-picker.png' });
  // A time past the end is refused in words.
  const refused = await page.evaluate(async (id) => {
    try {
      await (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call('jobs.thumbnail', { id, at: 999 });
      return null;
    } catch (e) {
      return (e as { message?: string }).message ?? String(e);
    }
  }, jobId);
  expect(refused).toMatch(/at most/);

  // Export, then import the same file: a second kit, its logo re-linked to the same picture.
  const kits = await bridge(page, 'brandKits.list', undefined);
  const file = await bridge(page, 'brandKits.export', { id: kits[0]!.id });
  expect(file.fileName).toBe('Acme.brandkit.json');
  const imported = await bridge(page, 'brandKits.import', { text: file.text });
  expect(imported.notes).toEqual([]);
  expect(imported.kit).toMatchObject({ name: 'Acme (2)', logo: { assetId: logoId, name: 'acme-logo.png' }, accentColor: '#E0218A' });
});

test("a kit's own font file draws the preview's captions, loaded through the app's media address", async ({ page }) => {
  await openApp(page);
  await page.locator('#script-text').fill('Captions in the house font.');
  const stage = page.getByTestId('stage-scene');
  // The caption band left of the presenter (placed right by the template, and moving): only the captions change there.
  const pixels = () => stage.evaluate((c: HTMLCanvasElement) => {
    const y = Math.round(c.height * 0.74);
    return Array.from(c.getContext('2d')!.getImageData(0, y, Math.round(c.width * 0.5), c.height - y).data);
  });
  // The template's own font first, once the preview has settled.
  let before: number[] = [];
  await expect.poll(async () => {
    const last = before;
    before = await pixels();
    return last.length > 0 && before.every((v, i) => v === last[i]);
  }).toBe(true);
  const serif = { name: 'house-serif.ttf', mimeType: 'font/ttf', buffer: readFileSync('resources/fonts/DejaVuSerif-Italic.ttf') };
  await dropFile(page, page.locator('body'), serif);
  await expect(page.getByTestId('media-library').getByRole('listitem', { name: 'house-serif.ttf' })).toBeVisible();
  const fontId = (await bridge(page, 'assets.list', { kind: 'font' })).assets.find((a) => a.name === 'house-serif.ttf')!.id;

  const panel = page.getByRole('region', { name: 'Brand kit' });
  await panel.getByRole('button', { name: 'New kit' }).click();
  const editor = panel.getByRole('form', { name: 'Brand kit editor' });
  await editor.getByLabel('Name').fill('House');
  await editor.getByLabel('Font').selectOption({ label: 'house-serif.ttf (your font)' });
  await editor.getByRole('button', { name: 'Save kit' }).click();
  await expect(editor).toBeHidden();
  await panel.getByRole('button', { name: 'Apply to this video' }).click();
  await expect(panel.getByTestId('brand-applied')).toHaveText('House applied');

  // The page loaded the asset as a font (the CSP lets the media address serve fonts), and the
  // preview's captions changed with it: nothing else in the kit differs from the template.
  await expect.poll(() => page.evaluate(async (family) => {
    await document.fonts.ready;
    return [...document.fonts].some((f) => f.family.replace(/"/g, '') === family && f.status === 'loaded');
  }, `PS Font ${fontId}`)).toBe(true);
  await expect.poll(async () => {
    const after = await pixels();
    return after.length === before.length && after.some((v, i) => v !== before[i]);
  }).toBe(true);
  await stage.screenshot({ path: 'docs/img/brand-font-preview.png' });
});
