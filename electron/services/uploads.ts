// Files on their way into the media library: each upload has an id, streams from a file (desktop)
// or from the browser's request body (web shell) to the render API, reports its bytes as
// `upload` events, and can be canceled. A slide deck is converted to PDF first (state
// `converting`). Nothing of a refused or canceled upload stays on this side either.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, extname, isAbsolute, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Asset } from '../../shared/contract/index.js';
import type { StudioEvent, UploadStatus } from '../../shared/bridge/index.js';
import type { RenderApiClient } from './api-client.js';
import { fileTypeOf, UNSUPPORTED_FILE_MESSAGE, type FileType } from './asset-files.js';
import { BridgeFailure, toBridgeError } from './errors.js';
import { reason, type Logger } from './logger.js';
import { convertToPdf, findSoffice, NO_LIBREOFFICE_MESSAGE } from './slide-deck.js';

export type UploadSource =
  /** A file on this machine (the desktop's file dialog or a dropped file). */
  | { kind: 'path'; path: string }
  /** Bytes arriving now (the web shell's request body); `sizeBytes` from its Content-Length. */
  | { kind: 'stream'; stream: Readable; sizeBytes: number | null };

export interface UploadsOptions {
  client: (profileId: string) => Promise<RenderApiClient>;
  emit: (event: StudioEvent) => void;
  /** The asset as the renderer sees it (app-local media URLs). */
  present: (profileId: string, asset: Asset) => Asset;
  /** Scratch space for slide-deck conversions (emptied per upload). */
  workDir: string;
  log: Logger;
  /** Where LibreOffice is (tests give their own). */
  findSoffice?: () => Promise<string | null>;
  /** At most one progress event per upload this often (the final state always goes out). */
  progressEveryMs?: number;
}

/** Finished uploads stay listed this long, so a window opened meanwhile still shows the outcome. */
const KEEP_FINISHED_MS = 10 * 60_000;
const MAX_KEPT = 200;
const UPLOAD_ID = /^[A-Za-z0-9_-]{8,64}$/;

interface Running {
  profileId: string;
  status: UploadStatus;
  abort: AbortController;
  /** Settles with the final status (unset only while `start` runs). */
  done?: Promise<UploadStatus>;
  finishedAt: number | null;
  /** The file stopped before its end (unreadable, or the browser went away). */
  sourceFailed?: Error;
}

const isTerminal = (s: UploadStatus['state']) => s === 'done' || s === 'failed' || s === 'canceled';

export class Uploads {
  private readonly uploads = new Map<string, Running>();
  private readonly lastEmit = new Map<string, number>();
  private readonly trailing = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly o: UploadsOptions) {}

  /**
   * Starts an upload and answers at once with its first status (`failed` straight away for a
   * file the library does not take); the rest arrives as events. `uploadId` may be proposed by
   * the caller (the web client names its upload before the first byte is sent).
   */
  async start(profileId: string, name: string, source: UploadSource, uploadId?: string): Promise<UploadStatus> {
    if (this.closed) throw new BridgeFailure('canceled', 'the studio is closing');
    const id = uploadId && UPLOAD_ID.test(uploadId) && !this.uploads.has(uploadId) ? uploadId : `up_${randomUUID()}`;
    const cleanName = basename(name.replace(/\\/g, '/')).slice(0, 255) || 'file';
    const abort = new AbortController();
    const run: Running = {
      profileId, abort, finishedAt: null,
      status: { uploadId: id, name: cleanName, sizeBytes: source.kind === 'stream' ? source.sizeBytes : null, sentBytes: 0, state: 'uploading', asset: null, error: null },
    };
    this.uploads.set(id, run);
    this.prune();
    const type = fileTypeOf(cleanName);
    if (!type) {
      if (source.kind === 'stream') source.stream.resume(); // drain: the answer reaches the browser
      return { ...this.finish(run, { state: 'failed', error: { code: 'unsupported_media_type', message: `"${cleanName}" cannot be added: ${UNSUPPORTED_FILE_MESSAGE}` } }) };
    }
    if (source.kind === 'path') {
      const size = await this.checkPath(source.path).catch((e: unknown) => toBridgeError(e));
      if (typeof size !== 'number') return { ...this.finish(run, { state: 'failed', error: size }) };
      run.status.sizeBytes = size;
    }
    this.send(run, true);
    run.done = this.run(run, type, source).then(
      (asset) => this.finish(run, { state: 'done', asset: this.o.present(profileId, asset), sentBytes: run.status.sizeBytes ?? run.status.sentBytes }),
      (e: unknown) => this.finish(run, abort.signal.aborted ? { state: 'canceled', error: { code: 'canceled', message: 'the upload was canceled' } } : { state: 'failed', error: this.failure(run, e) }),
    );
    return { ...run.status };
  }

  /** The final status of an upload (the web shell answers its request with it). */
  async finished(uploadId: string): Promise<UploadStatus> {
    const run = this.uploads.get(uploadId);
    if (!run) throw new BridgeFailure('not_found', `no upload "${uploadId}"`);
    return run.done ?? run.status;
  }

  cancel(uploadId: string): void {
    const run = this.uploads.get(uploadId);
    if (!run) throw new BridgeFailure('not_found', `no upload "${uploadId}"`);
    if (!isTerminal(run.status.state)) run.abort.abort();
  }

  /** Uploads under way and those finished in the last minutes, oldest first. */
  list(profileId?: string): UploadStatus[] {
    this.prune();
    return [...this.uploads.values()].filter((r) => !profileId || r.profileId === profileId).map((r) => ({ ...r.status }));
  }

  close(): void {
    this.closed = true;
    for (const r of this.uploads.values()) if (!isTerminal(r.status.state)) r.abort.abort();
  }

  private async checkPath(path: string): Promise<number> {
    if (!isAbsolute(path)) throw new BridgeFailure('invalid_input', 'the file was not given by its full path');
    const st = await stat(path).catch((e: NodeJS.ErrnoException) => {
      throw new BridgeFailure('not_found', e.code === 'ENOENT' ? `"${basename(path)}" is no longer there` : `"${basename(path)}" cannot be read (${e.code ?? 'error'})`);
    });
    if (!st.isFile()) throw new BridgeFailure('unsupported_media_type', `"${basename(path)}" is a folder, not a file`);
    return st.size;
  }

  private async run(run: Running, type: FileType, source: UploadSource): Promise<Asset> {
    const { signal } = run.abort;
    const client = await this.o.client(run.profileId);
    if (!type.convert) {
      const body = source.kind === 'path' ? createReadStream(source.path) : source.stream;
      return this.stream(run, client, run.status.name, type.mediaType, body);
    }
    const soffice = await (this.o.findSoffice ?? findSoffice)();
    if (!soffice) {
      if (source.kind === 'stream') source.stream.resume();
      throw new BridgeFailure('unsupported_media_type', NO_LIBREOFFICE_MESSAGE);
    }
    const work = join(this.o.workDir, run.status.uploadId);
    try {
      let input: string;
      if (source.kind === 'path') input = source.path;
      else {
        // The deck arrives over the network: kept (counted as sent) until LibreOffice reads it.
        await mkdir(work, { recursive: true });
        input = join(work, `deck${extname(run.status.name).toLowerCase()}`);
        await pipeline(source.stream, this.counter(run), createWriteStream(input), { signal });
      }
      this.update(run, { state: 'converting' }, true);
      const pdf = await convertToPdf(soffice, input, work, signal);
      const size = (await stat(pdf)).size;
      const pdfName = `${basename(run.status.name, extname(run.status.name))}.pdf`;
      this.update(run, { state: 'uploading', sentBytes: 0, sizeBytes: size, name: pdfName }, true);
      return await this.stream(run, client, pdfName, 'application/pdf', createReadStream(pdf));
    } finally {
      await rm(work, { recursive: true, force: true }).catch((e: unknown) => this.o.log.warn(`conversion folder ${work} not removed: ${reason(e)}`));
    }
  }

  private async stream(run: Running, client: RenderApiClient, name: string, mediaType: string, body: Readable): Promise<Asset> {
    const counted = this.counter(run);
    // Either end failing closes both: a canceled request releases the file, a broken file ends the request.
    pipeline(body, counted).catch((e: Error) => (run.sourceFailed ??= e));
    return client.uploadAsset({ name, mediaType, sizeBytes: run.status.sizeBytes, signal: run.abort.signal, body: counted });
  }

  /** Why an upload failed, in words for the creator: the API's refusal, or the file that stopped arriving. */
  private failure(run: Running, e: unknown): UploadStatus['error'] {
    if (e instanceof BridgeFailure && e.code !== 'offline') return e.toJSON();
    const broken = run.sourceFailed as NodeJS.ErrnoException | undefined;
    if (broken) return { code: 'io_error', message: `"${run.status.name}" stopped before its end (${broken.code ?? broken.message})` };
    return toBridgeError(e);
  }

  /** Counts the bytes that pass (sent, or received for a conversion). */
  private counter(run: Running): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, cb) => {
        this.update(run, { sentBytes: run.status.sentBytes + chunk.length });
        cb(null, chunk);
      },
    });
  }

  private update(run: Running, patch: Partial<UploadStatus>, force = false): void {
    if (isTerminal(run.status.state)) return;
    run.status = { ...run.status, ...patch };
    this.send(run, force);
  }

  private finish(run: Running, patch: Partial<UploadStatus>): UploadStatus {
    if (isTerminal(run.status.state)) return run.status;
    run.status = { ...run.status, ...patch };
    run.finishedAt = Date.now();
    run.done ??= Promise.resolve(run.status);
    this.send(run, true);
    this.lastEmit.delete(run.status.uploadId);
    return run.status;
  }

  /** At most one event per interval; the latest state always follows (a stalled upload still shows its last bytes). */
  private send(run: Running, force: boolean): void {
    const id = run.status.uploadId;
    const every = this.o.progressEveryMs ?? 200;
    const wait = (this.lastEmit.get(id) ?? 0) + every - Date.now();
    if (!force && wait > 0) {
      if (!this.trailing.has(id)) {
        const t = setTimeout(() => {
          this.trailing.delete(id);
          if (!isTerminal(run.status.state)) this.send(run, true);
        }, wait);
        t.unref?.();
        this.trailing.set(id, t);
      }
      return;
    }
    clearTimeout(this.trailing.get(id));
    this.trailing.delete(id);
    this.lastEmit.set(id, Date.now());
    this.o.emit({ type: 'upload', profileId: run.profileId, upload: { ...run.status } });
  }

  private prune(): void {
    const cutoff = Date.now() - KEEP_FINISHED_MS;
    for (const [id, r] of this.uploads) if (r.finishedAt !== null && (r.finishedAt < cutoff || this.uploads.size > MAX_KEPT)) this.uploads.delete(id);
  }
}
