// Main-process side of the bridge: one ipcMain.handle per method of the bridge table, on fixed
// channel names (`studio:<method>`), each refusing any sender but the app's own top frame, then
// validating and running the handler through dispatch. The only raw ipcMain user.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { BRIDGE_METHODS, IPC_CHANNEL_PREFIX, IPC_EVENT_CHANNEL, type StudioEvent, type StudioHandlers } from '../../../shared/bridge/index.js';
import { dispatch } from '../../services/dispatch.js';

/** True when the call comes from the main frame of one of our windows, loaded from the app itself. */
export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

export function trustedSender(allowedOrigin: string, isOurWindow: (wc: WebContents) => boolean): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    if (!frame || frame !== event.sender.mainFrame) return false; // no iframes
    if (!isOurWindow(event.sender)) return false;
    try {
      return new URL(frame.url).origin === allowedOrigin;
    } catch {
      return false;
    }
  };
}

export function registerBridge(handlers: StudioHandlers, isTrusted: SenderCheck): () => void {
  for (const method of BRIDGE_METHODS) {
    ipcMain.handle(`${IPC_CHANNEL_PREFIX}${method}`, async (event, input: unknown) => {
      if (!isTrusted(event)) return { ok: false, error: { code: 'forbidden', message: 'this window may not use the studio bridge' } };
      return dispatch(handlers, method, input);
    });
  }
  return () => {
    for (const method of BRIDGE_METHODS) ipcMain.removeHandler(`${IPC_CHANNEL_PREFIX}${method}`);
  };
}

export function sendEvent(target: WebContents, event: StudioEvent): void {
  if (!target.isDestroyed()) target.send(IPC_EVENT_CHANNEL, event);
}
