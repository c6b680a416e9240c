// Electron smoke: the real app — from the checkout (`electron .`) and, where one was built, the
// packaged app (`npm run dist -- --linux dir` → release/linux-unpacked/) — opens its window on
// the local studio, renders one job through the UI, plays it, quits, and leaves no studio,
// ffmpeg or Electron process behind. Electron's binary cannot be downloaded on the build
// machine, so each part runs wherever its binary exists and says plainly why it skipped otherwise.
import { z } from 'zod';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Electron's binary: ELECTRON_PATH, else the one the `electron` package downloaded. */
function electronBinary(): string | null {
  if (process.env.ELECTRON_PATH) return existsSync(process.env.ELECTRON_PATH) ? process.env.ELECTRON_PATH : null;
  try {
    const path = createRequire(import.meta.url)('electron') as unknown as string;
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null; // "Electron failed to install correctly": no binary (ELECTRON_SKIP_BINARY_DOWNLOAD)
  }
}

/** The packaged app's binary in release/ (names from electron-builder.yml and package.json). */
function packagedBinary(): string | null {
  const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
  const pkg = z.object({ name: z.string(), productName: z.string().optional() }).parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));
  const productName = /^productName:\s*(.+?)\s*$/m.exec(yml)?.[1] ?? pkg.productName ?? pkg.name;
  const executableName = /^\s*executableName:\s*(.+?)\s*$/m.exec(yml)?.[1];
  const candidates =
    process.platform === 'linux'
      ? [join(ROOT, 'release/linux-unpacked', executableName ?? pkg.name)]
      : process.platform === 'win32'
        ? [join(ROOT, 'release/win-unpacked', `${executableName ?? productName}.exe`)]
        : ['mac', 'mac-arm64', 'mac-universal'].map((d) => join(ROOT, 'release', d, `${productName}.app/Contents/MacOS/${productName}`));
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** The packaging test builds with a stand-in Electron (a script): only a real binary can open a window. */
function isScript(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(2);
    readSync(fd, head, 0, 2, 0);
    return head.toString('latin1') === '#!';
  } finally {
    closeSync(fd);
  }
}

const checkout = electronBinary();
const packaged = packagedBinary();
const NO_ELECTRON = 'no Electron binary on this machine (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1); run where `npx electron --version` works, or set ELECTRON_PATH';
const targets: { name: string; executablePath: string | null; args: string[]; skip: string | null }[] = [
  { name: 'from the checkout', executablePath: checkout, args: ['.'], skip: checkout ? null : NO_ELECTRON },
  {
    name: 'packaged',
    executablePath: packaged,
    args: [],
    skip: !checkout
      ? NO_ELECTRON
      : !packaged
        ? 'no packaged app in release/ (build it with `npm run dist -- --linux dir`)'
        : isScript(packaged)
          ? `${packaged} is the packaging test's stand-in, not Electron (rebuild with \`npm run dist -- --linux dir\` where Electron downloads)`
          : null,
  },
];

/** Linux: a process and everything it started, with each one's start time (pids are reused). */
function processTree(root: number): Map<number, string> {
  const stat = (pid: number) => {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = s.slice(s.lastIndexOf(')') + 2).split(' ');
      return { ppid: Number(fields[1]), start: fields[19]! };
    } catch {
      return null;
    }
  };
  const all = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  const tree = new Map<number, string>();
  const rootStat = stat(root);
  if (rootStat) tree.set(root, rootStat.start);
  for (let grew = true; grew; ) {
    grew = false;
    for (const pid of all) {
      const s = stat(pid);
      if (s && !tree.has(pid) && tree.has(s.ppid)) {
        tree.set(pid, s.start);
        grew = true;
      }
    }
  }
  return tree;
}

function stillRunning(tree: Map<number, string>): string[] {
  const out: string[] = [];
  for (const [pid, start] of tree) {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (s.slice(s.lastIndexOf(')') + 2).split(' ')[19] === start && !s.includes(') Z ')) out.push(`${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 200)}`);
    } catch {
      // gone
    }
  }
  return out;
}

for (const target of targets) {
  test.describe(`Electron app ${target.name}`, () => {
    test.describe.configure({ mode: 'serial' });
    test.skip(!!target.skip, `skipped: ${target.skip}`);
    if (target.skip) console.log(`Electron smoke suite (${target.name}) skipped: ${target.skip}`);

    let app: ElectronApplication;
    let page: Page;
    const userData = mkdtempSync(join(tmpdir(), 'ps-electron-user-'));

    test.beforeAll(async () => {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'ELECTRON_RUN_AS_NODE') env[k] = v;
      app = await electron.launch({
        executablePath: target.executablePath!,
        args: [...target.args, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
        cwd: ROOT,
        env: { ...env, PRESENTER_STUDIO_USER_DATA: userData, RENDER_API_BASE_URL: '', RENDER_API_KEY: '' },
        timeout: 60_000,
      });
      page = await app.firstWindow();
    });

    test.afterAll(async () => {
      // The quit test may have ended it already; close only an app still running.
      const proc = app?.process();
      if (proc && proc.exitCode === null && proc.signalCode === null) await app!.close();
    });

    test('opens the window, sandboxed, with only window.studio exposed', async () => {
      await expect(page.locator('[data-app-state="loaded"]')).toBeVisible({ timeout: 60_000 });
      expect(await page.title()).toBe('Presenter Studio');
      const exposed = await page.evaluate(() => ({
        studio: typeof (window as unknown as { studio?: unknown }).studio,
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
        origin: location.origin,
      }));
      expect(exposed).toEqual({ studio: 'object', require: 'undefined', process: 'undefined', origin: 'studio-app://app' });
      const prefs = await app.evaluate(({ BrowserWindow }) => {
        const w = BrowserWindow.getAllWindows()[0]!;
        // Not in electron.d.ts, but present at run time: the preferences the window really got.
        const wc = w.webContents as unknown as { getLastWebPreferences(): { contextIsolation?: boolean; sandbox?: boolean; nodeIntegration?: boolean } | null };
        const p = wc.getLastWebPreferences();
        return { contextIsolation: p?.contextIsolation, sandbox: p?.sandbox, nodeIntegration: p?.nodeIntegration };
      });
      expect(prefs).toEqual({ contextIsolation: true, sandbox: true, nodeIntegration: false });
      const refused = await page.evaluate(() =>
        (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call('nope.method', {}).catch((e: unknown) => e),
      );
      expect(refused).toMatchObject({ code: 'not_found' });
    });

    test('shows the local studio key as set, without ever returning it', async () => {
      const status = await page.evaluate(() => (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call('key.status', { profileId: 'local' }));
      expect(status).toMatchObject({ profileId: 'local', set: true });
      expect(JSON.stringify(status)).not.toMatch(/psk_/);
    });

    test('renders a job through the UI and plays it', async () => {
      await page.getByLabel('Narration script').fill('Smoke test from the desktop app.');
      await page.getByRole('button', { name: /Render video/ }).click();
      await expect(page.getByTestId('last-job-status')).toBeVisible();
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Jobs/ }).click();
      const row = page.locator('[data-job-id]').first();
      await expect(row).toHaveAttribute('data-status', 'completed', { timeout: 150_000 });
      await row.getByRole('button', { name: 'Play' }).click();
      const video = page.getByTestId('player');
      await expect(video).toBeVisible();
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
      expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(1);
      expect(await video.evaluate((v: HTMLVideoElement) => v.src)).toMatch(/^studio-media:\/\/app\//);
    });

    test('quits, and no studio, ffmpeg or Electron process survives', async () => {
      const pid = app.process().pid!;
      const tree = process.platform === 'linux' ? processTree(pid) : new Map<number, string>();
      const studioPid = Number(readFileSync(join(userData, 'studio', 'studio.pid'), 'utf8'));
      expect(process.platform !== 'linux' || tree.has(studioPid)).toBe(true);
      await app.close();
      expect(existsSync(join(userData, 'studio', 'studio.pid'))).toBe(false);
      expect(readFileSync(join(userData, 'logs', 'main.log'), 'utf8')).toMatch(/INFO {2}stopped$/m);
      if (process.platform === 'linux') await expect.poll(() => stillRunning(tree), { timeout: 10_000 }).toEqual([]);
      else test.info().annotations.push({ type: 'note', description: 'the process tree is checked on Linux only' });
    });
  });
}
