// Reads a .tgz as npm publishes it (ustar, with pax or GNU long names) and writes out the regular
// files a filter keeps: the one format the studio unpacks (a runtime it downloads on first use),
// so no tar library ships for it. Paths that climb out of the destination are refused.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { createGunzip } from 'node:zlib';

const BLOCK = 512;

/** A NUL-terminated field of a header. */
const field = (h: Buffer, at: number, len: number) => {
  const raw = h.subarray(at, at + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? len : end).toString('utf8');
};

/** Sizes are octal text, or base-256 (high bit set) for files of 8 GiB and more. */
function sizeOf(h: Buffer): number {
  if (h[124]! & 0x80) return Number(h.subarray(125, 136).readBigUInt64BE(3));
  return parseInt(field(h, 124, 12).trim() || '0', 8);
}

/** The `path` record of a pax extended header, if it has one. */
function paxPath(body: Buffer): string | undefined {
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    if (space < 0) break;
    const len = parseInt(body.subarray(at, space).toString('ascii'), 10);
    if (!(len > 0)) break;
    const record = body.subarray(space + 1, at + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') return record.slice(eq + 1);
    at += len;
  }
  return undefined;
}

/** Writes a chunk, waiting for the file to drain; rejects with the stream's error meanwhile. */
function write(out: WriteStream, part: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(part)) return resolve();
    const onError = (e: Error) => {
      out.off('drain', onDrain);
      reject(e);
    };
    const onDrain = () => {
      out.off('error', onError);
      resolve();
    };
    out.once('drain', onDrain).once('error', onError);
  });
}

/**
 * Writes every regular file of `tgz` whose path `keep` accepts (and maps: the path inside `dest`,
 * or null to skip it) under `dest`; returns the paths written. Rejects on a truncated archive.
 */
export async function extractTarball(tgz: string, dest: string, keep: (path: string) => string | null): Promise<string[]> {
  const written: string[] = [];
  let buf: Buffer = Buffer.alloc(0);
  let longName: string | undefined;
  // The entry being read: its body's remaining bytes, where they go (null: skipped), and its padding.
  let entry: { left: number; pad: number; out: WriteStream | null; meta: Buffer[] | null; type: string } | null = null;
  let ended = false;
  const source = createReadStream(tgz).pipe(createGunzip());
  for await (const chunk of source as AsyncIterable<Buffer>) {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (ended) break;
      if (entry) {
        const take = Math.min(entry.left, buf.length);
        if (take > 0) {
          const part = buf.subarray(0, take);
          if (entry.out) await write(entry.out, part);
          entry.meta?.push(Buffer.from(part));
          entry.left -= take;
          buf = buf.subarray(take);
        }
        if (entry.left > 0) break;
        if (buf.length < entry.pad) break;
        buf = buf.subarray(entry.pad);
        const done = entry;
        entry = null;
        if (done.out) await new Promise<void>((resolve, reject) => done.out!.end((e?: Error | null) => (e ? reject(e) : resolve())));
        if (done.meta) {
          const body = Buffer.concat(done.meta);
          longName = done.type === 'x' ? paxPath(body) : field(body, 0, body.length);
        }
        continue;
      }
      if (buf.length < BLOCK) break;
      const h = buf.subarray(0, BLOCK);
      buf = buf.subarray(BLOCK);
      if (h.every((b) => b === 0)) {
        ended = true; // the end-of-archive blocks
        break;
      }
      const type = String.fromCharCode(h[156]!) || '0';
      const size = sizeOf(h);
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      const prefix = field(h, 345, 155);
      const name = longName ?? (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100));
      if (type === 'x' || type === 'L') {
        entry = { left: size, pad, out: null, meta: [], type };
        continue;
      }
      longName = undefined;
      const target = type === '0' || type === '\0' ? keep(name) : null;
      let out: WriteStream | null = null;
      if (target !== null) {
        const rel = normalize(target);
        if (rel.startsWith('..') || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) throw new Error(`the archive names a file outside its folder: ${name}`);
        const file = join(dest, rel);
        await mkdir(dirname(file), { recursive: true });
        out = createWriteStream(file, { mode: parseInt(field(h, 100, 8).trim() || '644', 8) & 0o755 });
        // A failed write rejects the write or end() that meets it; the event itself is expected here.
        out.on('error', () => undefined);
        written.push(rel.split(sep).join('/'));
      }
      entry = { left: size, pad, out, meta: null, type };
    }
  }
  if (entry || !ended) throw new Error(`${tgz} ends before its last file`);
  return written;
}
