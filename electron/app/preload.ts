// Preload (sandboxed, bundled into one CJS file): exposes `window.studio` and nothing else.
import { contextBridge } from 'electron';
import { createStudioApi } from './ipc/renderer-bridge.js';

contextBridge.exposeInMainWorld('studio', createStudioApi());
