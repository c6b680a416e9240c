// Which IPC senders may use the bridge: only the main frame of one of our own windows, showing
// a page from the app's own origin (not an iframe, not a page it was navigated to).
import type { IpcInvokeEventLike, WebContentsLike } from '../electron-api.js';

export type SenderCheck = (event: IpcInvokeEventLike) => boolean;

export function trustedSender(allowedOrigin: string, isOurWindow: (wc: WebContentsLike) => boolean): SenderCheck {
  return (event) => {
    const frame = event.senderFrame;
    if (!frame || frame !== event.sender.mainFrame) return false;
    if (!isOurWindow(event.sender)) return false;
    try {
      // WHATWG URL gives custom schemes an opaque ("null") origin: compare scheme and host.
      const u = new URL(frame.url);
      return `${u.protocol}//${u.host}` === allowedOrigin;
    } catch {
      return false;
    }
  };
}
