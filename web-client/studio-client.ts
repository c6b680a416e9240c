// window.studio in a browser: the StudioApi over HTTP POST /bridge/<method> and SSE
// /bridge/events. The web shell serves this file and puts it into index.html ahead of the app.
// No key ever reaches the browser: the web shell adds it on the server side.
import type { BridgeError, BridgeResponse, StudioApi, StudioEvent, UploadStatus } from '../shared/bridge/index.js';

type Listener = (event: StudioEvent) => void;

const listeners = new Set<Listener>();
let source: EventSource | null = null;

let broken = false;

function emit(event: StudioEvent) {
  for (const l of [...listeners]) {
    try {
      l(event);
    } catch (e) {
      console.error(e);
    }
  }
}

function openEvents() {
  if (source) return;
  source = new EventSource('/bridge/events');
  source.onmessage = (m) => {
    try {
      emit(JSON.parse(m.data) as StudioEvent);
    } catch {
      // not an event
    }
  };
  // The web shell itself unreachable is offline too; when the stream is back, events may have
  // been missed, so the list is stale. (EventSource reconnects by itself.)
  source.onerror = () => {
    if (broken) return;
    broken = true;
    emit({ type: 'connection', profileId: '', online: false });
  };
  source.onopen = () => {
    if (!broken) return;
    broken = false;
    emit({ type: 'connection', profileId: '', online: true });
    emit({ type: 'jobs-stale', profileId: '' });
  };
}

/**
 * Calls the app makes as the page goes (pagehide: deletions still inside their Undo window): the
 * browser finishes them after the page is gone. Small bodies only (keepalive allows 64 KiB in all).
 */
const OUTLIVE_PAGE: ReadonlySet<string> = new Set(['jobs.delete']);

async function post(method: string, input: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`/bridge/${encodeURIComponent(method)}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: input ?? null }),
      keepalive: OUTLIVE_PAGE.has(method),
    });
  } catch {
    throw { code: 'offline', message: 'the studio web server could not be reached' };
  }
  let body: BridgeResponse<unknown>;
  try {
    body = (await res.json()) as BridgeResponse<unknown>;
  } catch {
    throw { code: 'internal_error', message: `the studio web server answered HTTP ${res.status}` };
  }
  if (!body.ok) throw body.error;
  return body.value;
}

/** getRandomValues, not randomUUID: a shell reached over plain HTTP on a LAN is no secure context. */
function newUploadId(): string {
  return `up_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Sends a file to the shell's upload route, which streams it on to the render API. Answers at
 * once; progress and the outcome arrive as `upload` events from the shell. When the shell itself
 * refuses (too large, too many at once) or cannot be reached, no event would come from it: the
 * failure is told here as one.
 */
function upload(file: File): Promise<UploadStatus> {
  const status: UploadStatus = { uploadId: newUploadId(), name: file.name, sizeBytes: file.size, sentBytes: 0, state: 'uploading', asset: null, error: null };
  const failed = (error: BridgeError) => emit({ type: 'upload', profileId: '', upload: { ...status, state: 'failed', error } });
  void fetch('/bridge/upload', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': file.type || 'application/octet-stream', 'x-file-name': encodeURIComponent(file.name), 'x-upload-id': status.uploadId },
    body: file,
  }).then(
    async (res) => {
      const body = (await res.json().catch(() => null)) as BridgeResponse<UploadStatus> | null;
      if (!body) failed({ code: 'internal_error', message: `the studio web server answered HTTP ${res.status}` });
      else if (!body.ok) failed(body.error);
    },
    () => failed({ code: 'offline', message: 'the studio web server could not be reached' }),
  );
  return Promise.resolve(status);
}

const studio: StudioApi = {
  upload,
  call: (async (method: string, input: unknown) => {
    const value = await post(method, input);
    if (method === 'download.start') {
      // No save dialog in a browser: let it download from the app-local media URL.
      const { jobId, kind } = input as { jobId: string; kind: string };
      const { url } = (await post('media.url', { jobId, kind })) as { url: string };
      const a = document.createElement('a');
      a.href = `${url}?download=1`;
      a.download = (value as { fileName?: string }).fileName ?? ''; // the job's title and date
      document.body.appendChild(a);
      a.click();
      a.remove();
    }
    return value;
  }) as StudioApi['call'],
  subscribe(listener) {
    listeners.add(listener);
    openEvents();
    return () => {
      listeners.delete(listener);
      if (!listeners.size && source) {
        source.close();
        source = null;
        broken = false;
      }
    };
  },
};

Object.defineProperty(window, 'studio', { value: Object.freeze(studio), writable: false, configurable: false });
