// Main-process side of the bridge: one ipcMain.handle per method of the bridge table, on fixed
// channel names (`studio:<method>`), each refusing any sender but the app's own top frame, then
// validating and running the handler through dispatch. The only user of raw ipcMain.
import { BRIDGE_METHODS, IPC_CHANNEL_PREFIX, IPC_EVENT_CHANNEL, type StudioEvent, type StudioHandlers } from '../../../shared/bridge/index.js';
import { dispatch } from '../../services/dispatch.js';
import type { IpcMainLike, WebContentsLike } from '../electron-api.js';
import type { SenderCheck } from './sender-check.js';

export { trustedSender, type SenderCheck } from './sender-check.js';

/** `track` is given every call as it starts (quitting waits for those still running). */
export function registerBridge(ipcMain: IpcMainLike, handlers: StudioHandlers, isTrusted: SenderCheck, track: (call: Promise<unknown>) => void = () => {}): () => void {
  for (const method of BRIDGE_METHODS) {
    ipcMain.handle(`${IPC_CHANNEL_PREFIX}${method}`, async (event, input: unknown) => {
      if (!isTrusted(event)) return { ok: false, error: { code: 'forbidden', message: 'this window may not use the studio bridge' } };
      const call = dispatch(handlers, method, input);
      track(call);
      return call;
    });
  }
  return () => {
    for (const method of BRIDGE_METHODS) ipcMain.removeHandler(`${IPC_CHANNEL_PREFIX}${method}`);
  };
}

export function sendEvent(target: WebContentsLike, event: StudioEvent): void {
  if (!target.isDestroyed()) target.send(IPC_EVENT_CHANNEL, event);
}
