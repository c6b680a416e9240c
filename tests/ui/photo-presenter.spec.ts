// A presenter from a photo in the real app (Chromium through the web shell, the local studio
// behind it): the public-domain astronaut portrait goes into the media library, "Make
// presenter" finds the face with MediaPipe Face Mesh in the page and shows the mesh over the
// photo, Accept makes the presenter, which is listed and renders. A photo without a face gets a
// plain message. Screenshots of the dialog go to docs/img/.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { bridge, openApp } from './support/app.js';

async function upload(page: Page, name: string, bytes: Buffer, type: string): Promise<string> {
  const refused = await page.evaluate(
    async ([fileName, b64, mediaType]) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const studio = (window as unknown as { studio: { upload(f: File): Promise<unknown> } }).studio;
      try {
        await studio.upload(new File([data], fileName, { type: mediaType }));
        return null;
      } catch (e) {
        return (e as { code?: string }).code ?? String(e);
      }
    },
    [name, bytes.toString('base64'), type] as const,
  );
  expect(refused).toBeNull();
  let id = '';
  await expect
    .poll(async () => {
      id = (await bridge(page, 'assets.list', { q: name })).assets.find((a) => a.name === name)?.id ?? '';
      return id;
    }, { timeout: 30_000 })
    .not.toBe('');
  return id;
}

const cardOf = (page: Page, name: string) => page.getByTestId('media-library').getByRole('listitem', { name });

test('a presenter from a photo: the mesh over the face, accept, render', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openApp(page);
  await upload(page, 'astronaut.jpg', readFileSync('tests/fixtures/astronaut.jpg'), 'image/jpeg');
  await cardOf(page, 'astronaut.jpg').getByRole('button', { name: 'Make presenter' }).click();
  const dialog = page.getByRole('dialog', { name: 'New presenter from a photo' });
  await expect(dialog.getByRole('status')).toContainText('The face was found', { timeout: 90_000 });
  await expect(dialog.getByLabel('The photo with the face mesh found')).toBeVisible();
  mkdirSync('docs/img', { recursive: true });
  await dialog.screenshot({ path: 'docs/img/photo-presenter-mesh.png' });
  await dialog.getByLabel('Name').fill('Eileen');
  await dialog.getByRole('button', { name: 'Accept and make presenter' }).click();
  await expect(dialog.getByRole('status')).toContainText('“Eileen” is ready');
  const presenterId = await dialog.getByRole('status').getAttribute('data-presenter-id');
  expect(presenterId).toMatch(/^pht_/);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // It renders: a short narration spoken by the photo presenter.
  const submitted = await bridge(page, 'jobs.submit', {
    request: { text: 'Hello from orbit. My mission begins now.', templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: presenterId! },
  });
  const jobId = submitted.job?.id;
  expect(jobId).toBeTruthy();
  await expect.poll(async () => (await bridge(page, 'jobs.get', { id: jobId! })).status, { timeout: 180_000 }).toBe('completed');
});

test('a photo without a face: a plain message, nothing made', async ({ page }) => {
  await openApp(page);
  const blank = await page.evaluate(async () => {
    const c = document.createElement('canvas');
    c.width = 400;
    c.height = 300;
    const ctx = c.getContext('2d')!;
    ctx.fillStyle = '#7fb2e5';
    ctx.fillRect(0, 0, 400, 300);
    const blob = await new Promise<Blob>((ok) => c.toBlob((b) => ok(b!), 'image/png'));
    return btoa(String.fromCharCode(...new Uint8Array(await blob.arrayBuffer())));
  });
  await upload(page, 'sky.png', Buffer.from(blank, 'base64'), 'image/png');
  await cardOf(page, 'sky.png').getByRole('button', { name: 'Make presenter' }).click();
  const dialog = page.getByRole('dialog', { name: 'New presenter from a photo' });
  await expect(dialog.getByRole('alert')).toHaveText(/No face was found in this photo/, { timeout: 90_000 });
  await expect(dialog.getByRole('button', { name: /Accept/ })).toHaveCount(0);
  await dialog.screenshot({ path: 'docs/img/photo-presenter-no-face.png' });
});
