// "The disk is full", however the part that hit it says so: SQLite (SQLITE_FULL, also what
// max_page_count gives), PostgreSQL (SQLSTATE 53100 disk_full), or a file write (ENOSPC,
// EDQUOT). A full disk is the server's temporary state, not the request's fault.
const SQLITE_FULL = 13;

export function isDiskFull(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { sqliteCode?: unknown; errcode?: unknown; code?: unknown };
  return e.sqliteCode === SQLITE_FULL || e.errcode === SQLITE_FULL || e.code === '53100' || e.code === 'ENOSPC' || e.code === 'EDQUOT';
}

/** Seconds a client waits before it tries again (Retry-After). */
export const DISK_FULL_RETRY_SECONDS = 60;
