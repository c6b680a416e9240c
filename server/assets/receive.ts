// An upload's body into a temporary file, a chunk at a time (never the whole body in memory).
// Past the byte limit it stops reading at once and the file is removed; so it is when the client
// goes away mid-body. The request itself is left open, so the route can still answer (413).
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { OWNER_FILE_MODE } from '../storage/owner-only.js';

/** The client disconnected before the body ended. */
export class UploadAbortedError extends Error {
  constructor() {
    super('the upload was aborted before its end');
    this.name = 'UploadAbortedError';
  }
}

/** Thrown when more than `maxBytes` arrive; carries how many were allowed. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the body is larger than ${maxBytes} bytes`);
    this.name = 'TooLargeError';
  }
}

/** Writes the body to `path` (a new file); resolves with its size once it is on disk. */
export function receiveBody(source: IncomingMessage, path: string, maxBytes: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const out = createWriteStream(path, { flags: 'wx', mode: OWNER_FILE_MODE });
    let bytes = 0;
    let settled = false;
    const detach = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('close', onClose);
      source.off('error', onError);
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      detach();
      source.pause();
      out.destroy();
      // The temporary file goes with the failure; its own removal error would hide the cause.
      void rm(path, { force: true }).catch(() => undefined).then(() => reject(err));
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) return fail(new TooLargeError(maxBytes));
      if (!out.write(chunk)) {
        source.pause();
        out.once('drain', () => settled || source.resume());
      }
    };
    const onEnd = () => {
      if (settled) return;
      detach();
      out.end();
    };
    const onClose = () => {
      if (!source.complete) fail(new UploadAbortedError());
    };
    const onError = () => fail(new UploadAbortedError());
    out.on('error', fail);
    out.on('close', () => {
      if (settled) return;
      settled = true;
      resolve(bytes);
    });
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('close', onClose);
    source.on('error', onError);
    source.resume();
  });
}
