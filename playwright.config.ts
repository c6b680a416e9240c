// Playwright: two projects. `ui` runs tests/ui/*.spec.ts in Debian's Chromium against the web
// shell (started here on a fresh data folder, with the local studio behind it); `electron` runs
// tests/electron/*.spec.ts: the Electron smoke suite (skips with a message where no Electron
// binary is installed) and the desktop-side checks of the web shell in Chromium.
import { defineConfig, devices } from '@playwright/test';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const PORT = Number(process.env.PS_WEB_PORT ?? 5199);
const baseURL = `http://127.0.0.1:${PORT}`;
const dataDir = join(process.cwd(), 'test-results/web-shell-data');
// Only the runner (not each worker) starts from an empty data folder.
if (!process.env.TEST_WORKER_INDEX) rmSync(dataDir, { recursive: true, force: true });

const chromium = {
  ...devices['Desktop Chrome'],
  baseURL,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  },
};

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results/playwright',
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1, // two cores, shared with the render engine behind the web shell
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/playwright.json' }]],
  projects: [
    { name: 'ui', testDir: 'tests/ui', testMatch: '**/*.spec.ts', use: chromium },
    { name: 'electron', testDir: 'tests/electron', testMatch: '**/*.spec.ts', use: chromium },
  ],
  webServer: {
    command: `${existsSync('dist/renderer/index.html') ? '' : 'npm run --silent build && '}node --import tsx electron/web/cli.ts --port ${PORT} --data ${JSON.stringify(dataDir)} --identities-per-hour 100000`,
    url: `${baseURL}/bridge/client.js`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // The web shell starts its own local studio: no render API from the environment. Every test's
    // fresh browser context is a new anonymous user from 127.0.0.1: lift the per-address limit.
    env: { RENDER_API_BASE_URL: '', RENDER_API_KEY: '' },
  },
});
