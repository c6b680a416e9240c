// The embedded job store: SQLite (sqlite-db.ts, WAL) in the data directory. All SQL lives
// here. Listing stays fast at 100,000+ jobs per user: keyset paging on (user_id, id) and
// per-user status counters kept in the same transaction as every change.
import { EventEmitter } from 'node:events';
import { JOB_STATUSES } from '../../shared/contract/index.js';
import type { JobStatus, StatusCounts } from '../../shared/contract/index.js';
import { IdGenerator } from './ids.js';
import { migrateSqlite } from './migrations/runner.js';
import { SqliteDatabase, type Statement } from './sqlite-db.js';
import { SQLITE_MIGRATIONS } from './migrations/sqlite.js';
import { applyTransition, InvalidTransitionError, nextProgress } from './state.js';
import type { TransitionRequest } from './state.js';
import type {
  CreateOptions,
  CreateResult,
  JobChange,
  JobStore,
  ListQuery,
  ListResult,
  NewJob,
  RecoverResult,
  StoredJob,
  TransitionResult,
} from './store.js';
import { newStoredJob, toJob } from './store.js';

interface PendingCreate {
  input: NewJob;
  options: CreateOptions;
  resolve(result: CreateResult): void;
  reject(err: unknown): void;
}

interface Row {
  doc: string;
  user_id: string;
  attempts: number;
  worker_id: string | null;
  lease_until: number | null;
}

/** Opens (and migrates) the database file shared by the job store and the key store. */
export function openDatabase(file: string): SqliteDatabase {
  const db = new SqliteDatabase(file);
  // NORMAL in WAL mode: a committed transaction survives a crash (kill -9) of the process.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON');
  migrateSqlite(db, SQLITE_MIGRATIONS);
  return db;
}

export class SqliteJobStore implements JobStore {
  private readonly events = new EventEmitter();
  private readonly ids = new IdGenerator('job_');
  private readonly listStatements = new Map<string, Statement>();
  private readonly s;
  private floor: string | null | undefined;
  private pendingCreates: PendingCreate[] = [];

  constructor(
    private readonly db: SqliteDatabase,
    private readonly ownsDb = false,
  ) {
    this.events.setMaxListeners(0);
    const sel = 'SELECT doc, user_id, attempts, worker_id, lease_until FROM jobs';
    this.s = {
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
  }

  /** The newest id stored when this store opened: new ids stay above it even if the clock went back. */
  private get idFloor(): string | null {
    if (this.floor === undefined) this.floor = this.s.maxId.value<string | null>() ?? null;
    return this.floor;
  }

  static open(file: string): SqliteJobStore {
    return new SqliteJobStore(openDatabase(file), true);
  }

  /**
   * Creates arriving in the same turn of the event loop share one transaction (group commit):
   * each still gets its own checks, in arrival order, and its promise settles only after the
   * commit, so a 202 always follows a durable write.
   */
  create(input: NewJob, options: CreateOptions): Promise<CreateResult> {
    return new Promise((resolve, reject) => {
      this.pendingCreates.push({ input, options, resolve, reject });
      if (this.pendingCreates.length === 1) setImmediate(() => this.flushCreates());
    });
  }

  private flushCreates(): void {
    const batch = this.pendingCreates;
    this.pendingCreates = [];
    let results: CreateResult[];
    try {
      results = this.db.immediate(() => batch.map((c) => this.createOne(c.input, c.options)));
    } catch {
      // One create failed the batch: retry each alone, so only the faulty one fails.
      for (const c of batch) {
        try {
          this.settleCreate(c, this.db.immediate(() => this.createOne(c.input, c.options)));
        } catch (err) {
          c.reject(err);
        }
      }
      return;
    }
    batch.forEach((c, i) => this.settleCreate(c, results[i]!));
  }

  private settleCreate(c: PendingCreate, result: CreateResult): void {
    if (result.kind === 'created') this.emit({ kind: 'created', job: result.job });
    c.resolve(result);
  }

  /** One create inside the caller's transaction. */
  private createOne(input: NewJob, options: CreateOptions): CreateResult {
    const now = Date.now();
    const idem = options.idempotency;
    if (idem) {
      const prior = this.s.idemGet.get(input.userId, idem.key) as
        | { request_hash: string; job_id: string; created_at: number }
        | undefined;
      if (prior && prior.created_at >= now - options.idempotencyTtlMs) {
        if (prior.request_hash !== idem.requestHash) return { kind: 'conflict' };
        const job = this.read(prior.job_id);
        if (job) return { kind: 'replayed', job };
        // The first job was deleted since: the key starts over.
      }
    }
    const active = this.s.active.value<number>(input.userId) ?? 0;
    if (active >= options.maxActive) return { kind: 'quota_exceeded', active };
    const at = new Date(now).toISOString();
    const job = newStoredJob(this.ids.next(this.idFloor), input, at);
    this.s.insert.run(this.params(job));
    this.s.bump.run(job.userId, job.status, 1);
    if (idem) this.s.idemPut.run(input.userId, idem.key, idem.requestHash, job.id, now);
    return { kind: 'created', job };
  }

  async findIdempotent(userId: string, key: string, ttlMs: number): Promise<{ requestHash: string; job: StoredJob } | null> {
    const prior = this.s.idemGet.get(userId, key) as { request_hash: string; job_id: string; created_at: number } | undefined;
    if (!prior || prior.created_at < Date.now() - ttlMs) return null;
    const job = this.read(prior.job_id);
    return job ? { requestHash: prior.request_hash, job } : null;
  }

  async get(id: string, userId: string | null): Promise<StoredJob | null> {
    const job = this.read(id);
    if (!job || (userId !== null && job.userId !== userId)) return null;
    return job;
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
    const read = (id: string) => this.read(id);
    return {
      // Read only if a caller asks; the list endpoint sends the stored JSON as it is.
      get jobs() {
        return page.map(([id]) => read(id)).filter((j): j is StoredJob => j !== null);
      },
      jobsJson: page.map(([, doc]) => doc),
      nextBeforeId: more ? page[page.length - 1]![0] : null,
      counts,
    };
  }

  async transition(id: string, userId: string | null, req: TransitionRequest, expectWorker?: string): Promise<TransitionResult> {
    const result = this.db
      .immediate((): TransitionResult => {
        const job = this.read(id);
        if (!job || (userId !== null && job.userId !== userId)) return { ok: false, reason: 'not_found' };
        if (expectWorker !== undefined && job.workerId !== expectWorker) {
          return { ok: false, reason: 'invalid_transition', job };
        }
        return this.write(job, req);
      });
    if (result.ok) this.emit({ kind: 'updated', job: result.job });
    return result;
  }

  async setProgress(id: string, workerId: string, progress: number): Promise<StoredJob | null> {
    const updated = this.db
      .immediate((): StoredJob | null => {
        const job = this.read(id);
        if (!job || job.workerId !== workerId) return null;
        const p = nextProgress(job, progress);
        if (p === null) return null;
        const next: StoredJob = { ...job, progress: p, updatedAt: new Date().toISOString() };
        this.s.update.run(this.updateParams(next, job.status));
        return next;
      });
    if (updated) this.emit({ kind: 'updated', job: updated });
    return updated;
  }

  async claimNext(workerId: string, leaseMs: number): Promise<StoredJob | null> {
    const result = this.db
      .immediate((): StoredJob | null => {
        const row = this.s.oldestQueued.get() as Row | undefined;
        if (!row) return null;
        const r = this.write(fromRow(row), { to: 'rendering', workerId, leaseUntil: Date.now() + leaseMs });
        return r.ok ? r.job : null;
      });
    if (result) this.emit({ kind: 'updated', job: result });
    return result;
  }

  async renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    return this.s.renew.run(Date.now() + leaseMs, id, workerId).changes === 1;
  }

  async recoverAbandoned(options: { all: boolean }): Promise<RecoverResult> {
    const changed: StoredJob[] = [];
    this.db
      .immediate(() => {
        const rows = (options.all ? this.s.byStatus.all('rendering') : this.s.lapsed.all(Date.now())) as Row[];
        for (const row of rows) {
          const r = this.write(fromRow(row), { to: 'queued', reason: 'worker_lost' });
          if (r.ok) changed.push(r.job);
        }
      });
    for (const job of changed) this.emit({ kind: 'updated', job });
    return {
      requeued: changed.filter((j) => j.status === 'queued').map((j) => j.id),
      failed: changed.filter((j) => j.status === 'failed').map((j) => j.id),
    };
  }

  async delete(id: string, userId: string): Promise<TransitionResult> {
    const result = this.db
      .immediate((): TransitionResult => {
        const job = this.read(id);
        if (!job || job.userId !== userId) return { ok: false, reason: 'not_found' };
        if (job.status === 'queued' || job.status === 'rendering') return { ok: false, reason: 'invalid_transition', job };
        this.s.remove.run(id);
        this.s.bump.run(job.userId, job.status, -1);
        return { ok: true, job };
      });
    if (result.ok) this.emit({ kind: 'deleted', job: result.job });
    return result;
  }

  async activeCount(userId: string): Promise<number> {
    return this.s.active.value<number>(userId) ?? 0;
  }

  /** Drops idempotency records past their lifetime (called from time to time by the server). */
  pruneIdempotency(olderThanMs: number): number {
    return this.s.idemPrune.run(Date.now() - olderThanMs).changes;
  }

  /** Bulk insert for benchmarks and tests: many jobs in one transaction, counters kept right. */
  seed(jobs: NewJob[], status: JobStatus = 'completed'): string[] {
    const ids: string[] = [];
    this.db.immediate(() => {
      const at = new Date().toISOString();
      for (const input of jobs) {
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
        this.s.insert.run(this.params(job));
        this.s.bump.run(job.userId, status, 1);
        ids.push(job.id);
      }
    });
    return ids;
  }

  subscribe(listener: (change: JobChange) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }

  async close(): Promise<void> {
    this.events.removeAllListeners();
    if (this.ownsDb) this.db.close();
  }

  private read(id: string): StoredJob | null {
    const row = this.s.get.get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Persists a transition (inside the caller's transaction) with compare-and-set on the status. */
  private write(job: StoredJob, req: TransitionRequest): TransitionResult {
    let next: StoredJob;
    try {
      next = applyTransition(job, req, new Date());
    } catch (err) {
      if (err instanceof InvalidTransitionError) return { ok: false, reason: 'invalid_transition', job };
      throw err;
    }
    const changes = this.s.update.run(this.updateParams(next, job.status)).changes;
    if (changes !== 1) return { ok: false, reason: 'invalid_transition', job };
    if (next.status !== job.status) {
      this.s.bump.run(job.userId, job.status, -1);
      this.s.bump.run(job.userId, next.status, 1);
    }
    return { ok: true, job: next };
  }

  private counts(userId: string): StatusCounts {
    const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as StatusCounts;
    for (const { status, n } of this.s.counts.all(userId) as { status: JobStatus; n: number }[]) counts[status] = n;
    return counts;
  }

  private params(job: StoredJob) {
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

  /** The named values of the compare-and-set update: exactly those it names (SQLite refuses others). */
  private updateParams(job: StoredJob, expected: JobStatus) {
    const { id, status, attempts, worker_id, lease_until, doc } = this.params(job);
    return { id, status, attempts, worker_id, lease_until, doc, expected };
  }

  /** Tells every listener; one that throws does not stop the others or the write that was made. */
  private emit(change: JobChange): void {
    for (const listener of this.events.listeners('change') as ((c: JobChange) => void)[]) {
      try {
        listener(change);
      } catch {
        // a listener's own fault; the change is committed regardless
      }
    }
  }
}

function fromRow(row: Row): StoredJob {
  return {
    ...(JSON.parse(row.doc) as StoredJob),
    userId: row.user_id,
    attempts: row.attempts,
    workerId: row.worker_id,
    leaseUntil: row.lease_until,
  };
}
