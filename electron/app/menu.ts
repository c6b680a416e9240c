// The application menu: standard roles, plus the studio's own entries.
import type { MenuItemConstructorOptions } from './electron-api.js';

export interface MenuActions {
  isDev: boolean;
  mac: boolean;
  openDataFolder: () => void;
  /** Help → Show Logs: opens the folder of the log file. */
  showLogs: () => void;
}

export function menuTemplate(opts: MenuActions): MenuItemConstructorOptions[] {
  const { mac } = opts;
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [{ label: 'Open Data Folder', click: opts.openDataFolder }, { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...(opts.isDev ? [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }] : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Show Logs', click: opts.showLogs }, { type: 'separator' }, { role: 'about' }] },
  ];
}
