// Settings: the connection test against the local studio, and the theme choice that sticks.
import { expect, test } from '@playwright/test';
import { goTo, openApp } from './support/app.js';

test('test the connection and switch the theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page);
  await goTo(page, 'Settings');
  await page.getByRole('button', { name: 'Test connection' }).first().click();
  await expect(page.getByTestId('connection-test').first()).toContainText(/Connected — version \d+\.\d+\.\d+/);
  await expect(page.getByTestId('key-status').first()).toContainText('Key: set');

  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByRole('radio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await goTo(page, 'Settings');
  await page.getByRole('radio', { name: 'Follow the system' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});
