// The data folder made ready before anything opens it: created owner-only, found writable, and
// studio.db (every user's scripts) with its WAL and shared-memory files owner-only too (SQLite
// gives those the database file's mode). A folder that cannot be used is named, with why,
// instead of SQLite's "unable to open database file".
import { accessSync, chmodSync, closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OWNER_DIR_MODE, OWNER_FILE_MODE } from './storage/owner-only.js';

export class DataDirError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DataDirError';
  }
}

const CAUSES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'it is on a read-only file system',
  ENOTDIR: 'a file stands where a folder should be',
  ENOENT: 'it does not exist',
  ENOSPC: 'the disk is full',
  EISDIR: 'a folder stands where a file should be',
};

function causeOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code && CAUSES[e.code] ? `${CAUSES[e.code]} (${e.code})` : (e.message ?? String(err));
}

/** Why `dir` could not be made: a recursive mkdir says ENOENT where the real cause is its existing parent's. */
function mkdirCause(dir: string, err: unknown): string {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return causeOf(err);
  for (let up = dirname(dir); up !== dirname(up); up = dirname(up)) {
    if (!existsSync(up)) continue;
    try {
      accessSync(up, constants.W_OK);
    } catch (parentErr) {
      return `${causeOf(parentErr)} in ${up}`;
    }
    break;
  }
  return causeOf(err);
}

/** The data folder's files that hold users' data, made owner-only (created when missing). */
const DATABASE_FILES = ['studio.db', 'studio.db-wal', 'studio.db-shm'];

/** Creates (or tightens) `dir` and its `subdirs` owner-only, and checks the server can write there. */
export function prepareDataDir(dir: string, subdirs: string[] = []): void {
  for (const d of [dir, ...subdirs.map((s) => join(dir, s))]) {
    try {
      mkdirSync(d, { recursive: true, mode: OWNER_DIR_MODE });
      chmodSync(d, OWNER_DIR_MODE);
      accessSync(d, constants.R_OK | constants.W_OK | constants.X_OK);
    } catch (err) {
      throw new DataDirError(`the data folder ${d} cannot be used: ${mkdirCause(d, err)}`, { cause: err });
    }
  }
  for (const name of DATABASE_FILES) {
    const file = join(dir, name);
    try {
      if (name === 'studio.db') closeSync(openSync(file, 'a', OWNER_FILE_MODE));
      chmodSync(file, OWNER_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && name !== 'studio.db') continue; // made by SQLite, with studio.db's mode
      throw new DataDirError(`the database ${file} cannot be used: ${causeOf(err)}`, { cause: err });
    }
  }
}

/** A file of the data folder created owner-only, or made so (e.g. the lock files). */
export function ownerOnlyFile(file: string): void {
  closeSync(openSync(file, 'a', OWNER_FILE_MODE));
  chmodSync(file, OWNER_FILE_MODE);
}
