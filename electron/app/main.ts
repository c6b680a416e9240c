// Electron main process entry: hands the real Electron and Node process to the app
// (desktop-app.ts), which never imports Electron itself, so the tests can drive it with fakes.
import { app, BrowserWindow, crashReporter, dialog, ipcMain, Menu, Notification, protocol, safeStorage, screen, session, shell } from 'electron';
import { startDesktopApp } from './desktop-app.js';

startDesktopApp(
  {
    app,
    BrowserWindow,
    crashReporter,
    // Every window the app hands back was made by this BrowserWindow.
    dialog: {
      showErrorBox: (title, content) => dialog.showErrorBox(title, content),
      showSaveDialog: (options, parent) => (parent ? dialog.showSaveDialog(parent as BrowserWindow, options) : dialog.showSaveDialog(options)),
      showOpenDialog: (options, parent) => (parent ? dialog.showOpenDialog(parent as BrowserWindow, options) : dialog.showOpenDialog(options)),
    },
    ipcMain,
    Menu,
    Notification,
    protocol,
    safeStorage,
    screen,
    session,
    shell,
  },
  { platform: process.platform, env: process.env, execPath: process.execPath, on: (event, listener) => process.on(event, listener) },
  { echo: app.isPackaged ? undefined : (line) => console.log(line) },
);
