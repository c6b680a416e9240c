// Preload (sandboxed, bundled into one CJS file): exposes `window.studio` and nothing else.
// An entry: it hands Electron's ipcRenderer to the bridge, which never imports Electron itself.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createStudioApi } from './ipc/renderer-bridge.js';

contextBridge.exposeInMainWorld('studio', createStudioApi(ipcRenderer, webUtils));
