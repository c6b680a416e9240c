// The embedded job store: SQLite (sqlite-db.ts, WAL) in the data directory. The algorithm is
// sql-store.ts's; this file holds SQLite's statements. Listing stays fast at 100,000+ jobs per
// user: keyset paging on (user_id, id) and per-user status counters kept in the same
// transaction as every change. Creates of one turn of the event loop share a commit.
import { zeroCounts } from '../../shared/contract/index.js';
import type { JobStatus, StatusCounts } from '../../shared/contract/index.js';
import { migrateSqlite } from './migrations/runner.js';
import { SqliteDatabase, type Statement } from './sqlite-db.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite.js';
import { done, fromRow, runSync, SqlJobStore } from './sql-store.js';
import type { JobRow, JobSql, SqlDriver, Step } from './sql-store.js';
import type { ListQuery, ListResult, NewJob, StoredJob } from './store.js';
import { toJob } from './store.js';

/** Opens (and migrates) the database file shared by the job store and the key store. */
export function openDatabase(file: string): SqliteDatabase {
  const db = new SqliteDatabase(file);
  // NORMAL in WAL mode: a committed transaction survives a crash (kill -9) of the process.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON');
  migrateSqlite(db, SQLITE_MIGRATIONS);
  return db;
}

interface PendingTransaction {
  run(): unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export class SqliteJobStore extends SqlJobStore {
  private readonly sqlite: SqliteDriver;

  constructor(db: SqliteDatabase, ownsDb = false) {
    const driver = new SqliteDriver(db, ownsDb);
    super(driver);
    this.sqlite = driver;
  }

  static open(file: string): SqliteJobStore {
    return new SqliteJobStore(openDatabase(file), true);
  }

  /** Drops idempotency records past their lifetime (called from time to time by the server). */
  pruneIdempotency(olderThanMs: number): number {
    return this.sqlite.s.idemPrune.run(Date.now() - olderThanMs).changes;
  }

  /** Bulk insert for benchmarks and tests: many jobs in one transaction, counters kept right. */
  seed(jobs: NewJob[], status: JobStatus = 'completed'): string[] {
    const { db, sql } = this.sqlite;
    return db.immediate(() => {
      const at = new Date().toISOString();
      return jobs.map((input) => {
        const job: StoredJob = {
          ...input,
          warnings: input.warnings ?? [],
          id: this.ids.next(),
          status,
          progress: status === 'completed' ? 1 : 0,
          createdAt: at,
          updatedAt: at,
          startedAt: null,
          finishedAt: status === 'queued' || status === 'rendering' ? null : at,
          output: null,
          error: status === 'failed' ? { code: 'engine_unavailable', message: 'seeded' } : null,
          attempts: 0,
          workerId: null,
          leaseUntil: null,
        };
        runSync(sql.insert(job));
        runSync(sql.bump(job.userId, [[status, 1]]));
        return job.id;
      });
    });
  }
}

/** SQLite's statements; every step finishes synchronously. */
class SqliteDriver implements SqlDriver {
  readonly s;
  readonly sql: JobSql;
  private readonly listStatements = new Map<string, Statement>();
  private floor: string | null | undefined;
  private pending: PendingTransaction[] = [];

  constructor(
    readonly db: SqliteDatabase,
    private readonly ownsDb: boolean,
  ) {
    const sel = 'SELECT doc, user_id, attempts, worker_id, lease_until FROM jobs';
    const s = {
      insert: db.prepare(
        'INSERT INTO jobs (id, user_id, status, title, search, attempts, worker_id, lease_until, doc) VALUES (@id, @user_id, @status, @title, @search, @attempts, @worker_id, @lease_until, @doc)',
      ),
      update: db.prepare(
        'UPDATE jobs SET status = @status, attempts = @attempts, worker_id = @worker_id, lease_until = @lease_until, doc = @doc WHERE id = @id AND status = @expected',
      ),
      remove: db.prepare('DELETE FROM jobs WHERE id = ?'),
      get: db.prepare(`${sel} WHERE id = ?`),
      maxId: db.prepare('SELECT max(id) FROM jobs'),
      oldestQueued: db.prepare(`${sel} WHERE status = 'queued' ORDER BY id LIMIT 1`),
      byStatus: db.prepare(`${sel} WHERE status = ?`),
      lapsed: db.prepare(`${sel} WHERE status = 'rendering' AND lease_until < ?`),
      renew: db.prepare("UPDATE jobs SET lease_until = ? WHERE id = ? AND worker_id = ? AND status = 'rendering'"),
      counts: db.prepare('SELECT status, n FROM user_counts WHERE user_id = ?'),
      active: db
        .prepare("SELECT coalesce(sum(n), 0) FROM user_counts WHERE user_id = ? AND status IN ('queued', 'rendering')"),
      bump: db.prepare(
        'INSERT INTO user_counts (user_id, status, n) VALUES (?, ?, ?) ON CONFLICT (user_id, status) DO UPDATE SET n = n + excluded.n',
      ),
      idemGet: db.prepare('SELECT request_hash, job_id, created_at FROM idempotency WHERE user_id = ? AND key = ?'),
      idemPut: db.prepare(
        'INSERT OR REPLACE INTO idempotency (user_id, key, request_hash, job_id, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      idemPrune: db.prepare('DELETE FROM idempotency WHERE created_at < ?'),
    };
    this.s = s;
    // The newest id stored when this store opened: new ids stay above it even if the clock went back.
    const floor = (): string | null => {
      if (this.floor === undefined) this.floor = s.maxId.value<string | null>() ?? null;
      return this.floor;
    };
    const read = (id: string): StoredJob | null => {
      const row = s.get.get(id) as JobRow | undefined;
      return row ? fromRow(row) : null;
    };
    this.sql = {
      // SQLite locks the whole file for a write transaction (BEGIN IMMEDIATE): reads are already locked.
      read: (id) => done(read(id)),
      lock: (id) => done(read(id)),
      insert: (job) => done(void s.insert.run(params(job))),
      update: (job, expected) => {
        const { id, status, attempts, worker_id, lease_until, doc } = params(job);
        // Exactly the named values the statement uses (SQLite refuses others).
        return done(s.update.run({ id, status, attempts, worker_id, lease_until, doc, expected }).changes === 1);
      },
      remove: (id) => done(void s.remove.run(id)),
      bump: (userId, deltas) => done(deltas.forEach(([status, n]) => s.bump.run(userId, status, n))),
      active: (userId) => done(s.active.value<number>(userId) ?? 0),
      idempotent: (userId, key, since) => {
        const prior = s.idemGet.get(userId, key) as { request_hash: string; job_id: string; created_at: number } | undefined;
        return done(!prior || prior.created_at < since ? null : { requestHash: prior.request_hash, job: read(prior.job_id) });
      },
      remember: (userId, idem, jobId, at) => done(void s.idemPut.run(userId, idem.key, idem.requestHash, jobId, at)),
      idFloor: () => done(floor()),
      // BEGIN IMMEDIATE already makes every write transaction take turns.
      lockUser: () => done(undefined),
      oldestQueued: () => {
        const row = s.oldestQueued.get() as JobRow | undefined;
        return done(row ? { job: fromRow(row), now: Date.now() } : null);
      },
      abandoned: (all) => done(((all ? s.byStatus.all('rendering') : s.lapsed.all(Date.now())) as JobRow[]).map(fromRow)),
      // One process per SQLite data folder (data-lock.ts): no one else to tell.
      notify: () => done(undefined),
    };
  }

  /**
   * A grouped transaction joins the others of the same turn of the event loop in one commit
   * (group commit): each still runs its own checks, in arrival order, and its promise settles
   * only after the commit, so a 202 always follows a durable write.
   */
  async transaction<T>(body: (sql: JobSql) => Step<T>, options?: { group?: boolean }): Promise<T> {
    const run = () => runSync(body(this.sql));
    if (!options?.group) return this.db.immediate(run);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ run, resolve: resolve as (v: unknown) => void, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    let results: unknown[];
    try {
      results = this.db.immediate(() => batch.map((t) => t.run()));
    } catch {
      // One of them failed the batch: retry each alone, so only the faulty one fails.
      for (const t of batch) {
        try {
          t.resolve(this.db.immediate(() => t.run()));
        } catch (err) {
          t.reject(err);
        }
      }
      return;
    }
    batch.forEach((t, i) => t.resolve(results[i]));
  }

  async read<T>(body: (sql: JobSql) => Step<T>): Promise<T> {
    return runSync(body(this.sql));
  }

  async list(query: ListQuery): Promise<ListResult> {
    const statuses = query.statuses?.length ? [...new Set(query.statuses)] : null;
    const shape = `${statuses ? statuses.length : 0}|${query.q ? 1 : 0}|${query.beforeId ? 1 : 0}`;
    let stmt = this.listStatements.get(shape);
    if (!stmt) {
      const where = ['user_id = ?'];
      if (statuses) where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
      if (query.q) where.push('instr(search, ?) > 0');
      if (query.beforeId) where.push('id < ?');
      // Raw rows of two columns: building row objects costs more than the query itself here.
      stmt = this.db.prepare(`SELECT id, doc FROM jobs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`).raw(true);
      this.listStatements.set(shape, stmt);
    }
    const args: unknown[] = [query.userId];
    if (statuses) args.push(...statuses);
    if (query.q) args.push(query.q.toLowerCase());
    if (query.beforeId) args.push(query.beforeId);
    args.push(query.limit + 1);
    // Both reads run synchronously, back to back: no write of this process can come between.
    const rows = stmt.all(...args) as [id: string, doc: string][];
    const counts = this.counts(query.userId);
    const page = rows.slice(0, query.limit);
    const more = rows.length > query.limit;
    const sql = this.sql;
    return {
      // Read only if a caller asks; the list endpoint sends the stored JSON as it is.
      get jobs() {
        return page.map(([id]) => runSync(sql.read(id))).filter((j): j is StoredJob => j !== null);
      },
      jobsJson: page.map(([, doc]) => doc),
      nextBeforeId: more ? page[page.length - 1]![0] : null,
      counts,
    };
  }

  async renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    return this.s.renew.run(Date.now() + leaseMs, id, workerId).changes === 1;
  }

  async close(): Promise<void> {
    if (this.ownsDb) this.db.close();
  }

  private counts(userId: string): StatusCounts {
    const counts = zeroCounts();
    for (const { status, n } of this.s.counts.all(userId) as { status: JobStatus; n: number }[]) counts[status] = n;
    return counts;
  }
}

/** A job's column values, named as the insert and update statements name them. */
function params(job: StoredJob) {
  return {
    id: job.id,
    user_id: job.userId,
    status: job.status,
    title: job.title ?? null,
    search: job.text.toLowerCase(),
    attempts: job.attempts,
    worker_id: job.workerId,
    lease_until: job.leaseUntil,
    doc: JSON.stringify(toJob(job)),
  };
}
