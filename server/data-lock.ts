// One server per data folder. A second `serve --data D` must not touch D's store (its recovery
// would re-queue the first server's live renders, its start-up would delete their work files).
//
// The lock is an OS file lock, held by keeping a write transaction open on D/studio.lock (a tiny
// SQLite file): SQLite takes it with fcntl on Linux and macOS and LockFileEx on Windows, and the
// OS drops it the moment the holder dies, so a stale lock (holder gone, even after kill -9 or a
// power cut) is simply taken by the next server, with no PID guessing. D/studio.lock.json names
// the holder (PID, start time, host) for the message the second server prints.
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { SqliteDatabase } from './jobs/sqlite-db.js';
import { ownerOnlyFile } from './data-dir.js';

const LockHolder = z.object({ pid: z.number().int(), startedAt: z.string(), host: z.string() });
export type LockHolder = z.infer<typeof LockHolder>;

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      `the data folder ${dataDir} is in use by another server` +
        (holder ? ` (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt})` : '') +
        '; stop that server or use another --data folder',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

/** SQLITE_BUSY (5): another connection holds the write lock. */
function isBusy(err: unknown): boolean {
  const e = err as { errcode?: number; sqliteCode?: string; message?: string };
  return e.errcode === 5 || e.sqliteCode === 'SQLITE_BUSY' || /database is locked/i.test(e.message ?? '');
}

/** Takes the data folder's lock or throws DataDirLockedError naming the holder. */
export function lockDataDir(dataDir: string): DataDirLock {
  // A short wait: a holder being stopped (SIGKILL is not instant) lets go within it.
  ownerOnlyFile(join(dataDir, 'studio.lock'));
  const db = new SqliteDatabase(join(dataDir, 'studio.lock'));
  try {
    db.exec('PRAGMA busy_timeout = 3000');
    db.exec('BEGIN IMMEDIATE'); // the write lock; never committed, so held until release or death
  } catch (err) {
    db.close();
    if (isBusy(err)) throw new DataDirLockedError(dataDir, readHolder(dataDir));
    throw err;
  }
  const holder: LockHolder = { pid: process.pid, startedAt: new Date().toISOString(), host: hostname() };
  ownerOnlyFile(join(dataDir, 'studio.lock.json'));
  writeFileSync(join(dataDir, 'studio.lock.json'), `${JSON.stringify(holder)}\n`);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      db.close(); // rolls the open transaction back, which drops the lock
    },
  };
}

/** The holder named in studio.lock.json; null when it is missing or unreadable (the message then names no one). */
function readHolder(dataDir: string): LockHolder | null {
  try {
    return LockHolder.safeParse(JSON.parse(readFileSync(join(dataDir, 'studio.lock.json'), 'utf8'))).data ?? null;
  } catch {
    return null;
  }
}
