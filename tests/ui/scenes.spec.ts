// A video of scenes over the creator's own media, end to end through the web shell in Chromium
// against the real local studio: drop a picture and a PDF onto the window, make scenes of the
// PDF's pages and one over the picture, reorder them, delete one and take it back with Undo,
// render, and see the job complete with those scenes in that order. Screenshots of the scene
// strip and the media library go to docs/img/.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createCanvas } from '@napi-rs/canvas';
import { mkdirSync } from 'node:fs';
import type { Job } from '../../shared/contract/index.js';
import { bridge, openApp } from './support/app.js';

interface DroppedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A 16:9 picture worth looking at behind a scene. */
function picture(): DroppedFile {
  const c = createCanvas(1280, 720);
  const g = c.getContext('2d');
  const sky = g.createLinearGradient(0, 0, 0, 720);
  sky.addColorStop(0, '#f6d7b0');
  sky.addColorStop(1, '#c98b6b');
  g.fillStyle = sky;
  g.fillRect(0, 0, 1280, 720);
  g.fillStyle = '#6b4b3e';
  g.fillRect(0, 520, 1280, 200);
  for (let i = 0; i < 5; i++) {
    g.fillStyle = `rgba(255,255,255,${0.3 + i * 0.1})`;
    g.fillRect(80 + i * 240, 120, 160, 300);
  }
  return { name: 'office.png', mimeType: 'image/png', buffer: c.toBuffer('image/png') };
}

/** A real two-page slide deck (Helvetica text that pdf.js can read back). */
function slides(): DroppedFile {
  const pages = [
    ['Quarterly review', 'Revenue grew twelve percent', 'Two new markets opened'],
    ['Next steps', 'Hire two engineers', 'Ship the mobile app'],
  ];
  const objs: string[] = ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>'];
  const pagesId = 3 + pages.length * 2;
  const kids: number[] = [];
  for (const [title, ...bullets] of pages) {
    let s = `0.97 0.97 0.99 rg 0 0 960 540 re f 0.36 0.29 0.86 rg 0 0 960 8 re f BT 0.1 0.1 0.15 rg /F2 44 Tf 84 420 Td (${title}) Tj ET\n`;
    bullets.forEach((b, i) => (s += `BT 0.25 0.25 0.3 rg /F1 26 Tf 90 ${330 - i * 52} Td (- ${b}) Tj ET\n`));
    objs.push(`<< /Length ${s.length} >>\nstream\n${s}\nendstream`);
    objs.push(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 960 540] /Resources << /Font << /F1 1 0 R /F2 2 0 R >> >> /Contents ${objs.length} 0 R >>`);
    kids.push(objs.length);
  }
  objs.push(`<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  objs.push(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  let out = '%PDF-1.4\n';
  const offsets = objs.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root ${objs.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return { name: 'quarterly.pdf', mimeType: 'application/pdf', buffer: Buffer.from(out, 'latin1') };
}

/** Drags files from "the desktop" over `target` and drops them there, as the OS would. */
async function dropFiles(page: Page, target: Locator, files: DroppedFile[]): Promise<void> {
  const data = await page.evaluateHandle(
    (fs) => {
      const dt = new DataTransfer();
      for (const f of fs) dt.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      return dt;
    },
    files.map((f) => ({ name: f.name, mimeType: f.mimeType, b64: f.buffer.toString('base64') })),
  );
  await target.dispatchEvent('dragenter', { dataTransfer: data });
  await target.dispatchEvent('dragover', { dataTransfer: data });
  await expect(page.getByTestId('drop-overlay')).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer: data });
  await expect(page.getByTestId('drop-overlay')).toBeHidden();
}

// The scene strip (SceneStrip.tsx): a region named "Scenes …" whose items carry `data-scene-id`,
// in the video's order; each holds the card ("Scene 2: …") and its "Delete scene 2" button.
const strip = (page: Page) => page.getByRole('region', { name: /^Scenes/ });
const cards = (page: Page) => strip(page).locator('[data-scene-id]');
const sceneIds = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.sceneId!));
const selectScene = (page: Page, i: number) => cards(page).nth(i).getByRole('button', { name: new RegExp(`^Scene ${i + 1}\\b`) }).click();

test('drop a picture and a PDF, build three scenes, reorder, undo a delete, render', async ({ page }) => {
  test.setTimeout(300_000);
  await openApp(page);
  const library = page.getByTestId('media-library');
  const card = (name: string) => library.getByRole('listitem', { name });
  await expect(library).toBeVisible();
  // The library has answered (a drop is taken only once the API is known to keep files).
  await expect(library.getByText(/No files yet/)).toBeVisible();

  // Files dropped anywhere on the window land in the library, with their facts.
  await dropFiles(page, page.locator('body'), [picture()]);
  await expect(card('office.png')).toContainText('Picture');
  await expect(card('office.png')).toContainText('1280×720');
  await dropFiles(page, page.locator('.topbar'), [slides()]);
  await expect(card('quarterly.pdf')).toContainText('2 pages');
  await expect(library.getByRole('list', { name: 'Uploads' })).toHaveCount(0);

  // The deck becomes a scene per page (the empty first scene takes page 1), its text the narration.
  await expect(cards(page)).toHaveCount(1);
  await card('quarterly.pdf').getByRole('button', { name: 'Make scenes from pages' }).click();
  await expect(library.getByRole('status')).toContainText('2 scenes made from “quarterly.pdf”');
  await expect(cards(page)).toHaveCount(2);
  await expect(page.locator('#script-text')).toHaveValue('Quarterly review. Revenue grew twelve percent. Two new markets opened.');

  // A third scene, after the last, over the picture.
  await selectScene(page, 1);
  await strip(page).getByRole('button', { name: 'Add scene' }).click();
  await expect(cards(page)).toHaveCount(3);
  await page.locator('#script-text').fill('Thank you for watching. See you next quarter.');
  await card('office.png').getByRole('button', { name: 'Use as background' }).click();
  const [page1, page2, closing] = await sceneIds(page);

  // Reorder by keyboard: the closing scene moves up one place.
  await selectScene(page, 2);
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => sceneIds(page)).toEqual([page1, closing, page2]);

  // Delete a scene; Undo brings it back where it was.
  await selectScene(page, 1);
  await cards(page).nth(1).getByRole('button', { name: 'Delete scene 2' }).click();
  await expect.poll(() => sceneIds(page)).toEqual([page1, page2]);
  await page.keyboard.press('Control+z');
  await expect.poll(() => sceneIds(page)).toEqual([page1, closing, page2]);

  mkdirSync('docs/img', { recursive: true });
  await strip(page).screenshot({ path: 'docs/img/scene-strip.png' });
  await library.screenshot({ path: 'docs/img/media-library.png' });

  // Render: the job completes with the three scenes in the strip's order, each over its own media.
  const assets = (await bridge(page, 'assets.list', {})).assets;
  const idOf = (name: string) => assets.find((a) => a.name === name)!.id;
  await page.getByRole('button', { name: /Render video/ }).click();
  await expect(page.getByTestId('last-job-status')).toBeVisible();
  await expect
    .poll(async () => (await bridge(page, 'jobs.list', { limit: 1 })).jobs[0]?.status, { timeout: 240_000, intervals: [1000] })
    .toMatch(/completed|failed|canceled/);
  const job: Job = (await bridge(page, 'jobs.list', { limit: 1 })).jobs[0]!;
  expect(job.status, job.error?.message).toBe('completed');
  expect(job.scenes?.map((s) => [s.background?.assetId ?? null, s.background?.page ?? null])).toEqual([
    [idOf('quarterly.pdf'), 1],
    [idOf('office.png'), null],
    [idOf('quarterly.pdf'), 2],
  ]);
  await expect(page.getByTestId('last-job-status')).toContainText(/Completed/);
});
