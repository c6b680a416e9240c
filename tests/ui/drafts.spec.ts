// Drafts: autosave, editing while the studio cannot be reached (nothing typed is lost), and the
// sidebar's new / rename / search / delete.
import { expect, test } from '@playwright/test';
import { bridge, openApp } from './support/app.js';

test('drafts keep every keystroke while offline and save once back', async ({ page, context }) => {
  await openApp(page);
  const editor = page.getByLabel('Narration script');
  await editor.fill('Draft written online.');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');

  await context.setOffline(true);
  await editor.fill('Draft written online. And more written offline.');
  await page.getByLabel('Script name').fill('Offline notes');
  await expect(page.getByTestId('save-state')).toHaveText(/Not saved/);
  await expect(page.getByRole('alert').filter({ hasText: 'Your text is kept' })).toBeVisible();
  // Switching drafts now would lose the edits: the app refuses and says why.
  await page.getByRole('button', { name: '+ New' }).click();
  await expect(page.getByText('could not be saved yet, so it stays open')).toBeVisible();
  await expect(editor).toHaveValue('Draft written online. And more written offline.');

  await context.setOffline(false);
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 15_000 });
  const drafts = await bridge(page, 'drafts.list', {});
  expect(drafts.map((d) => d.name)).toEqual(['Offline notes']);

  await page.reload();
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
  await expect(page.getByLabel('Narration script')).toHaveValue('Draft written online. And more written offline.');
});

test('new, rename, search and delete drafts from the sidebar', async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Narration script').fill('First script about apples.');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.getByRole('button', { name: '+ New' }).click();
  await expect(page.getByLabel('Narration script')).toHaveValue('');
  await page.getByLabel('Narration script').fill('Second script about pears.');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');

  const sidebar = page.getByRole('complementary', { name: 'Drafts' });
  await expect(sidebar.locator('.draft-open')).toHaveCount(2);
  await sidebar.getByRole('button', { name: 'Rename Untitled script' }).first().click();
  await sidebar.getByLabel('Draft name').fill('Pears');
  await sidebar.getByLabel('Draft name').press('Enter');
  await expect(sidebar.getByRole('button', { name: /^Pears/ })).toBeVisible();

  await sidebar.getByLabel('Search drafts').fill('apples');
  await expect(sidebar.locator('.draft-open')).toHaveCount(1);
  await sidebar.locator('.draft-open').first().click();
  await expect(page.getByLabel('Narration script')).toHaveValue('First script about apples.');
  await sidebar.getByLabel('Search drafts').fill('');
  await expect(sidebar.locator('.draft-open')).toHaveCount(2);

  await sidebar.getByRole('button', { name: 'Delete Pears' }).click();
  await expect(sidebar.locator('.draft-open')).toHaveCount(1);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(sidebar.locator('.draft-open')).toHaveCount(2);
  expect((await bridge(page, 'drafts.list', {})).map((d) => d.name).sort()).toEqual(['Pears', 'Untitled script']);
});
