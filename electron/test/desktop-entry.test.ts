// The entry (electron/app/main.ts) with Electron's module replaced by the fakes: it hands the
// real Node process and every part of `electron` the app uses to startDesktopApp (not made
// ready here: desktop-app.test.ts drives the rest).
import { afterAll, expect, it, vi } from 'vitest';
import type { FakeElectron } from './fake-electron.js';

const fake = vi.hoisted(() => ({ electron: null as FakeElectron | null }));

vi.mock('electron', async () => {
  const { FakeElectron, LockRegistry } = await import('./fake-electron.js');
  const { tempDir, ROOT } = await import('./helpers.js');
  // The app is not made ready: only what the entry does before the first await runs.
  const electron = new FakeElectron({ locks: new LockRegistry(), appPath: ROOT, userData: tempDir('ps-entry-'), ready: new Promise<void>(() => undefined) });
  fake.electron = electron;
  const { app, BrowserWindow, crashReporter, dialog, ipcMain, Menu, Notification, protocol, safeStorage, screen, session, shell } = electron;
  return { app, BrowserWindow, crashReporter, dialog, ipcMain, Menu, Notification, protocol, safeStorage, screen, session, shell };
});

const before = new Set([...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')]);

afterAll(() => {
  for (const event of ['uncaughtException', 'unhandledRejection'] as const)
    for (const l of process.listeners(event)) if (!before.has(l)) process.removeListener(event, l as never);
});

it('starts the app on the real process with the electron module', async () => {
  await import('../app/main.js');
  const electron = fake.electron!;
  expect(electron.app.events()).toEqual(expect.arrayContaining(['second-instance', 'activate', 'window-all-closed', 'before-quit', 'child-process-gone', 'web-contents-created']));
  expect(electron.schemes.map((s) => s.scheme)).toEqual(['studio-app', 'studio-media']);
  expect(electron.crashReports).toEqual([{ uploadToServer: false, compress: true }]);
  const added = [...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')].filter((l) => !before.has(l));
  expect(added).toHaveLength(2);
});
