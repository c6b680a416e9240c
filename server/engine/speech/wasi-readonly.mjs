// The WASI (preview 1) calls a C library compiled for wasm32-wasi makes, over one read-only
// directory of the real file system: enough for espeak-ng to read its data (open, read, seek,
// stat, list a directory). Files are read whole on open and kept (espeak reads each a few
// times). Writes go nowhere but stdout/stderr, which are collected, and files the module creates,
// which stay in memory (a command-line program's output file: Flite's WAV). A file the packaged
// app stores compressed (`<name>.br`, server/packed-file.mjs) is seen, listed and read as the plain
// file. Plain JavaScript so the speech worker loads it as it is (also from a packaged app).
// Why not node:wasi: it is experimental in Node 20 and prints a warning on every start.
import { readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { PACKED_SUFFIX, readPackedFileSync } from '../../packed-file.mjs';

const E = { SUCCESS: 0, BADF: 8, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54, ROFS: 69 };
const FILETYPE = { CHAR: 2, DIR: 3, FILE: 4 };
const O_CREAT = 1, O_DIRECTORY = 2, O_EXCL = 4, O_TRUNC = 8;
const ALL_RIGHTS = 0xffffffffffffffffn;

/** Thrown by proc_exit: the C code asked to stop. */
export class WasiExit extends Error {
  constructor(code) {
    super(`The WebAssembly module exited with code ${code}.`);
    this.code = code;
  }
}

/**
 * WASI imports with `root` (a real directory) preopened as `mountAs` (e.g. "/data").
 * `onOpen(path)` sees every file opened (relative to root), for tools that trim data.
 * `args`: the command line a program's main() sees (argv[0] first).
 * `keepCreated`: a file the module creates (O_CREAT) is kept in memory only, never written to
 * root (`created(path)`); without it, creating or truncating a file answers EROFS.
 */
export function readOnlyWasi(root, mountAs, { onOpen, args = [], keepCreated = false } = {}) {
  let memory = null;
  const view = () => new DataView(memory.buffer);
  const bytes = () => new Uint8Array(memory.buffer);
  const files = new Map(); // relative path -> Buffer
  let seed = 0x2545f491; // random_get's xorshift state
  /** fd -> { dir: true, path } | { data: Buffer, pos: number } | { out: string[] } */
  const fds = new Map([
    [0, { out: [] }],
    [1, { out: [] }],
    [2, { out: [] }],
    [3, { dir: true, path: '' }],
  ]);
  let nextFd = 4;
  /** Files the module created, relative path -> { data, length }: in memory only. */
  const made = new Map();
  const argv = args.map((a) => Buffer.from(`${a}\0`, 'utf8'));
  const mount = Buffer.from(mountAs);
  const text = (ptr, len) => Buffer.from(memory.buffer, ptr, len).toString('utf8');

  /** A path inside root, or null when it would leave it. */
  function resolve(dirFd, ptr, len) {
    const dir = fds.get(dirFd);
    if (!dir || !dir.dir) return null;
    // WASI paths use '/' on every OS: resolved as POSIX paths, then joined to the real root.
    const rel = posix.normalize(posix.join(dir.path, text(ptr, len))).replace(/^\/+/, '');
    if (rel === '..' || rel.startsWith('../')) return null;
    if (/[\\:]/u.test(rel)) return null; // a backslash or drive letter would be a separator on Windows
    return rel === '.' ? '' : rel;
  }
  /** A file's bytes, read whole once (a packed file decompressed). */
  function content(rel) {
    let data = files.get(rel);
    if (!data) {
      data = readPackedFileSync(join(root, rel));
      files.set(rel, data);
    }
    return data;
  }
  /** The file's stat, or null when there is none (ENOENT, or ENOTDIR: a file named as a folder). */
  function statOrNull(path) {
    try {
      return statSync(path);
    } catch (err) {
      if (err?.code === 'ENOENT' || err?.code === 'ENOTDIR') return null;
      throw err;
    }
  }
  function stat(rel) {
    const st = statOrNull(join(root, rel));
    if (st) return st;
    // Absent, unless stored packed: then it is the file its content is (espeak sizes files by stat).
    const packed = rel ? statOrNull(join(root, rel + PACKED_SUFFIX)) : null;
    if (!packed?.isFile()) return null; // the caller answers ENOENT, as a file system would
    return { ino: packed.ino, size: content(rel).length, mtimeMs: packed.mtimeMs, isDirectory: () => false };
  }
  function writeFilestat(ptr, st) {
    const v = view();
    v.setBigUint64(ptr, 0n, true);
    v.setBigUint64(ptr + 8, BigInt(st.ino), true);
    v.setUint8(ptr + 16, st.isDirectory() ? FILETYPE.DIR : FILETYPE.FILE);
    v.setBigUint64(ptr + 24, 1n, true);
    v.setBigUint64(ptr + 32, BigInt(st.size), true);
    for (const o of [40, 48, 56]) v.setBigUint64(ptr + o, BigInt(Math.round(st.mtimeMs)) * 1_000_000n, true);
  }

  /** fd_write into a file the module created: grows its buffer, writes at the position. */
  function writeMade(f, iovs, count, out) {
    const v = view();
    let n = 0;
    for (let i = 0; i < count; i++) {
      const ptr = v.getUint32(iovs + i * 8, true);
      const len = v.getUint32(iovs + i * 8 + 4, true);
      const file = f.made;
      const end = f.pos + len;
      if (end > file.data.length) {
        const grown = Buffer.alloc(Math.max(end, file.data.length * 2, 4096));
        file.data.copy(grown, 0, 0, file.length);
        file.data = grown;
      }
      file.data.set(new Uint8Array(memory.buffer, ptr, len), f.pos);
      f.pos = end;
      file.length = Math.max(file.length, end);
      n += len;
    }
    v.setUint32(out, n, true);
    return E.SUCCESS;
  }

  const imports = {
    args_get: (ptrs, buf) => {
      let at = buf;
      argv.forEach((a, i) => {
        view().setUint32(ptrs + i * 4, at, true);
        bytes().set(a, at);
        at += a.length;
      });
      return E.SUCCESS;
    },
    args_sizes_get: (argc, bufSize) => (view().setUint32(argc, argv.length, true), view().setUint32(bufSize, argv.reduce((n, a) => n + a.length, 0), true), E.SUCCESS),
    environ_get: () => E.SUCCESS,
    environ_sizes_get: (count, bufSize) => (view().setUint32(count, 0, true), view().setUint32(bufSize, 0, true), E.SUCCESS),
    // A voice's samples must follow from its text alone (a render is the same each time): the
    // clock stands still at the epoch and "random" bytes are one fixed sequence per instance.
    clock_time_get: (_id, _precision, out) => (view().setBigUint64(out, 0n, true), E.SUCCESS),
    random_get: (ptr, len) => {
      const b = bytes();
      for (let i = 0; i < len; i++) {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        b[ptr + i] = seed & 0xff;
      }
      return E.SUCCESS;
    },
    proc_exit: (code) => {
      throw new WasiExit(code);
    },
    fd_prestat_get: (fd, ptr) => {
      if (fd !== 3) return E.BADF;
      view().setUint32(ptr, 0, true);
      view().setUint32(ptr + 4, mount.length, true);
      return E.SUCCESS;
    },
    fd_prestat_dir_name: (fd, ptr, len) => {
      if (fd !== 3) return E.BADF;
      bytes().set(mount.subarray(0, len), ptr);
      return E.SUCCESS;
    },
    fd_fdstat_get: (fd, ptr) => {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      const v = view();
      v.setUint8(ptr, f.dir ? FILETYPE.DIR : f.out ? FILETYPE.CHAR : FILETYPE.FILE);
      v.setUint16(ptr + 2, 0, true);
      v.setBigUint64(ptr + 8, ALL_RIGHTS, true);
      v.setBigUint64(ptr + 16, ALL_RIGHTS, true);
      return E.SUCCESS;
    },
    fd_fdstat_set_flags: (fd) => (fds.has(fd) ? E.SUCCESS : E.BADF),
    path_open: (dirFd, _lookup, ptr, len, oflags, _rights, _inherit, _fdflags, out) => {
      const rel = resolve(dirFd, ptr, len);
      if (rel === null) return E.NOENT;
      if (oflags & O_CREAT && keepCreated) {
        if (oflags & O_DIRECTORY || rel === '') return E.ISDIR;
        const file = { data: Buffer.alloc(0), length: 0 };
        made.set(rel, file);
        const fd = nextFd++;
        fds.set(fd, { made: file, pos: 0 });
        view().setUint32(out, fd, true);
        return E.SUCCESS;
      }
      if (oflags & (O_CREAT | O_EXCL | O_TRUNC)) return E.ROFS;
      const st = stat(rel);
      if (!st) return E.NOENT;
      let entry;
      if (st.isDirectory()) entry = { dir: true, path: rel };
      else if (oflags & O_DIRECTORY) return E.NOTDIR;
      else {
        const data = content(rel);
        onOpen?.(rel);
        entry = { data, pos: 0 };
      }
      const fd = nextFd++;
      fds.set(fd, entry);
      view().setUint32(out, fd, true);
      return E.SUCCESS;
    },
    path_filestat_get: (dirFd, _flags, ptr, len, out) => {
      const rel = resolve(dirFd, ptr, len);
      const st = rel === null ? null : stat(rel);
      if (!st) return E.NOENT;
      writeFilestat(out, st);
      return E.SUCCESS;
    },
    fd_filestat_get: (fd, out) => {
      const f = fds.get(fd);
      if (!f || f.out) return E.BADF;
      if (f.made) writeFilestat(out, { ino: 0, size: f.made.length, mtimeMs: 0, isDirectory: () => false });
      else if (f.dir) {
        const st = stat(f.path);
        if (!st) return E.NOENT;
        writeFilestat(out, st);
      } else {
        writeFilestat(out, { ino: 0, size: f.data.length, mtimeMs: 0, isDirectory: () => false });
      }
      return E.SUCCESS;
    },
    fd_read: (fd, iovs, count, out) => {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      if (f.dir) return E.ISDIR;
      if (f.made) return E.BADF; // created files are written, never read back by the module
      if (!f.data) return (view().setUint32(out, 0, true), E.SUCCESS);
      const v = view();
      const b = bytes();
      let n = 0;
      for (let i = 0; i < count; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        const take = Math.min(len, f.data.length - f.pos);
        if (take <= 0) break;
        b.set(f.data.subarray(f.pos, f.pos + take), ptr);
        f.pos += take;
        n += take;
      }
      v.setUint32(out, n, true);
      return E.SUCCESS;
    },
    fd_seek: (fd, offset, whence, out) => {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      if (!f.data && !f.made) return E.INVAL;
      const base = whence === 0 ? 0 : whence === 1 ? f.pos : f.made ? f.made.length : f.data.length;
      const pos = base + Number(offset);
      if (pos < 0) return E.INVAL;
      f.pos = pos;
      view().setBigUint64(out, BigInt(pos), true);
      return E.SUCCESS;
    },
    fd_tell: (fd, out) => {
      const f = fds.get(fd);
      if (!f || !(f.data || f.made)) return E.BADF;
      view().setBigUint64(out, BigInt(f.pos), true);
      return E.SUCCESS;
    },
    fd_write: (fd, iovs, count, out) => {
      const f = fds.get(fd);
      if (!f) return E.BADF;
      if (f.made) return writeMade(f, iovs, count, out);
      if (!f.out) return E.ROFS;
      const v = view();
      let n = 0;
      for (let i = 0; i < count; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        f.out.push(text(ptr, len));
        n += len;
      }
      if (f.out.length > 64) f.out.splice(0, f.out.length - 64); // keep the last lines only
      v.setUint32(out, n, true);
      return E.SUCCESS;
    },
    fd_close: (fd) => (fd > 3 && fds.delete(fd) ? E.SUCCESS : E.BADF),
    fd_readdir: (fd, buf, bufLen, cookie, out) => {
      const f = fds.get(fd);
      if (!f || !f.dir) return E.NOTDIR;
      f.entries ??= readdirSync(join(root, f.path), { withFileTypes: true }).map((e) =>
        e.isFile() && e.name.endsWith(PACKED_SUFFIX) ? { name: e.name.slice(0, -PACKED_SUFFIX.length), isDirectory: () => false } : e,
      );
      const v = view();
      const b = bytes();
      let used = 0;
      for (let i = Number(cookie); i < f.entries.length && used < bufLen; i++) {
        const e = f.entries[i];
        const name = Buffer.from(e.name);
        const head = new DataView(new ArrayBuffer(24));
        head.setBigUint64(0, BigInt(i + 1), true);
        head.setBigUint64(8, 0n, true);
        head.setUint32(16, name.length, true);
        head.setUint8(20, e.isDirectory() ? FILETYPE.DIR : FILETYPE.FILE);
        const entry = Buffer.concat([Buffer.from(head.buffer), name]);
        const take = Math.min(entry.length, bufLen - used); // a cut entry tells the reader to ask again
        b.set(entry.subarray(0, take), buf + used);
        used += take;
      }
      v.setUint32(out, used, true);
      return E.SUCCESS;
    },
    path_unlink_file: () => E.ROFS,
    path_remove_directory: () => E.ROFS,
  };
  return {
    /** Imports for WebAssembly.instantiate; unknown calls answer ENOSYS. */
    imports: {
      wasi_snapshot_preview1: new Proxy(imports, { get: (t, k) => t[k] ?? (() => E.NOSYS) }),
    },
    /** Call once the instance exists (its memory is what the calls read and write). */
    bind(instance) {
      memory = instance.exports.memory;
    },
    /** What the module printed on stderr (its error messages), newest last. */
    stderr: () => fds.get(2).out.join(''),
    /** The bytes of a file the module created (path relative to the mount), or null. */
    created(path) {
      const f = made.get(path.replace(/^\/+/, ''));
      return f ? f.data.subarray(0, f.length) : null;
    },
  };
}
