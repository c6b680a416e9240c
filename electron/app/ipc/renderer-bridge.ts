// Renderer (preload) side of the bridge: builds `window.studio` from the bridge table. Each
// method has its own fixed channel; a name outside the table is refused here, before IPC.
// The only user of raw ipcRenderer (handed in by the preload).
import { BRIDGE_METHODS, IPC_CHANNEL_PREFIX, IPC_EVENT_CHANNEL, type BridgeResponse, type StudioApi, type StudioEvent, type UploadStatus } from '../../../shared/bridge/index.js';
import type { IpcRendererLike, WebUtilsLike } from '../electron-api.js';

/**
 * Reached only through `upload(file)`: the page names a file by handing over a File the user
 * dropped or chose (its path comes from Electron here), never by a path of its own making.
 */
const PRELOAD_ONLY = 'assets.uploadPath';

export function createStudioApi(ipcRenderer: IpcRendererLike, webUtils: WebUtilsLike): StudioApi {
  const channels = new Map<string, string>(BRIDGE_METHODS.filter((m) => m !== PRELOAD_ONLY).map((m) => [m, `${IPC_CHANNEL_PREFIX}${m}`]));
  const invoke = async (channel: string, input: unknown) => {
    const r = (await ipcRenderer.invoke(channel, input)) as BridgeResponse<unknown>;
    if (!r.ok) throw r.error; // a plain { code, message } survives contextBridge; an Error would not
    return r.value;
  };
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
      if (method === PRELOAD_ONLY) throw { code: 'forbidden', message: 'files are added with studio.upload(file)' };
      if (!channel) throw { code: 'not_found', message: `unknown bridge method "${String(method).slice(0, 64)}"` };
      return invoke(channel, input);
    }) as StudioApi['call'],
    upload: async (file: File) => {
      let path = '';
      try {
        path = webUtils.getPathForFile(file);
      } catch {
        // not a File object: no path
      }
      if (!path) throw { code: 'invalid_input', message: 'only files dropped or chosen from this computer can be added' };
      return (await invoke(`${IPC_CHANNEL_PREFIX}${PRELOAD_ONLY}`, { path })) as UploadStatus;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
