// Renderer (preload) side of the bridge: builds `window.studio` from the bridge table. Each
// method has its own fixed channel; a name outside the table is refused here, before IPC.
// The only user of raw ipcRenderer (handed in by the preload).
import { BRIDGE_METHODS, IPC_CHANNEL_PREFIX, IPC_EVENT_CHANNEL, type BridgeResponse, type StudioApi, type StudioEvent } from '../../../shared/bridge/index.js';
import type { IpcRendererLike } from '../electron-api.js';

export function createStudioApi(ipcRenderer: IpcRendererLike): StudioApi {
  const channels = new Map<string, string>(BRIDGE_METHODS.map((m) => [m, `${IPC_CHANNEL_PREFIX}${m}`]));
  const listeners = new Set<(e: StudioEvent) => void>();
  ipcRenderer.on(IPC_EVENT_CHANNEL, (_e, event) => {
    for (const l of [...listeners]) {
      try {
        l(event as StudioEvent);
      } catch (err) {
        console.error(err);
      }
    }
  });
  return {
    call: (async (method: string, input: unknown) => {
      const channel = channels.get(method);
      if (!channel) throw { code: 'not_found', message: `unknown bridge method "${String(method).slice(0, 64)}"` };
      const r = (await ipcRenderer.invoke(channel, input)) as BridgeResponse<unknown>;
      if (!r.ok) throw r.error; // a plain { code, message } survives contextBridge; an Error would not
      return r.value;
    }) as StudioApi['call'],
    upload: () => Promise.reject({ code: 'unsupported', message: 'uploads are not built yet' }),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
