// Downloads to a path the user chose: streamed to `<path>.part` and renamed when complete, so a
// canceled or failed download never leaves a file that looks whole. Progress goes out as
// `download` events, at most every 200 ms while bytes arrive and once at the end.
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import type { StudioEvent } from '../../shared/bridge/index.js';
import { BridgeFailure, toBridgeError } from './errors.js';
import type { Logger } from './logger.js';

export type DownloadEvent = Extract<StudioEvent, { type: 'download' }>;

export interface DownloadsOptions {
  emit: (e: DownloadEvent) => void;
  log: Logger;
  /** How often progress is told while bytes arrive. */
  progressEveryMs?: number;
}

export class Downloads {
  private readonly running = new Map<string, AbortController>();
  constructor(private readonly o: DownloadsOptions) {}

  /** Starts writing what `open` answers to `path`; returns the download's id at once. */
  start(path: string, open: (signal: AbortSignal) => Promise<Response>): string {
    const id = randomUUID();
    const ctl = new AbortController();
    this.running.set(id, ctl);
    void this.run(id, path, open, ctl).finally(() => this.running.delete(id));
    return id;
  }

  cancel(id: string): void {
    const ctl = this.running.get(id);
    if (!ctl) throw new BridgeFailure('not_found', `no running download "${id}"`);
    ctl.abort();
  }

  /** Cancels every running download (the app is closing). */
  close(): void {
    for (const c of this.running.values()) c.abort();
  }

  private async run(id: string, path: string, open: (signal: AbortSignal) => Promise<Response>, ctl: AbortController): Promise<void> {
    const part = `${path}.part`;
    let received = 0;
    let total: number | null = null;
    let lastEmit = 0;
    const progress = (done: boolean, error: DownloadEvent['error'] = null) =>
      this.o.emit({ type: 'download', downloadId: id, receivedBytes: received, totalBytes: total, done, error });
    try {
      const res = await open(ctl.signal);
      total = Number(res.headers.get('content-length')) || null;
      if (!res.body) throw new BridgeFailure('unreadable_response', 'the render API sent no file');
      const every = this.o.progressEveryMs ?? 200;
      const counted = Readable.fromWeb(res.body as ReadableStream).on('data', (c: Buffer) => {
        received += c.length;
        const now = Date.now();
        if (now - lastEmit > every) {
          lastEmit = now;
          progress(false);
        }
      });
      await pipeline(counted, createWriteStream(part), { signal: ctl.signal });
      await rename(part, path);
      progress(true);
    } catch (e) {
      await unlink(part).catch((u: NodeJS.ErrnoException) => {
        // ENOENT: nothing was written yet (the API refused before the first byte).
        if (u.code !== 'ENOENT') this.o.log.warn(`download: could not remove ${part}: ${u.message}`);
      });
      progress(true, ctl.signal.aborted ? { code: 'canceled', message: 'the download was canceled' } : toBridgeError(e));
    }
  }
}
