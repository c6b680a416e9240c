// The job-store algorithm both SQL stores share (sqlite-store.ts, postgres-store.ts): create,
// transitions, progress, claims, recovery and delete, written once over `JobSql`, the few
// statements whose SQL differs per database. Each algorithm is a generator of steps: an
// asynchronous driver (pg) awaits what a step yields; a synchronous one (SQLite) never yields,
// so its transactions stay synchronous, with nothing of this process in between.
import { EventEmitter } from 'node:events';
import { Job, type JobOutput, type JobStatus } from '../../shared/contract/index.js';
import { IdGenerator } from './ids.js';
import { applyTransition, canDelete, InvalidTransitionError, nextProgress } from './state.js';
import type { TransitionRequest } from './state.js';
import type {
  CreateOptions,
  CreateResult,
  IdempotencyInput,
  JobChange,
  JobStore,
  ListQuery,
  ListResult,
  NewJob,
  RecoverResult,
  StoredJob,
  TransitionResult,
} from './store.js';
import { newStoredJob } from './store.js';

/** A piece of store work: yields the promises it waits for (none, for a synchronous driver). */
export type Step<T> = Generator<Promise<unknown>, T, unknown>;

/** Waits for a promise inside a step. */
export function* wait<T>(p: Promise<T>): Step<T> {
  return (yield p) as T;
}

/** A step already done: what a synchronous driver's statements return. */
// eslint-disable-next-line require-yield -- finishing without waiting is the point
export function* done<T>(value: T): Step<T> {
  return value;
}

/** Runs a step of an asynchronous driver to its end. */
export async function runAsync<T>(step: Step<T>): Promise<T> {
  let at = step.next();
  while (!at.done) {
    let value: unknown;
    try {
      value = await at.value;
    } catch (err) {
      at = step.throw(err);
      continue;
    }
    at = step.next(value);
  }
  return at.value;
}

/** Runs a step of a synchronous driver: it must finish without waiting. */
export function runSync<T>(step: Step<T>): T {
  const at = step.next();
  if (!at.done) throw new Error('a synchronous job-store step waited for a promise');
  return at.value;
}

/** The columns every job row is read with: the contract's Job as JSON plus the server's fields. */
export interface JobRow {
  doc: string;
  user_id: string;
  attempts: number | string;
  worker_id: string | null;
  /** Epoch ms (PostgreSQL's bigint arrives as text). */
  lease_until: number | string | null;
}

export class CorruptJobRowError extends Error {
  constructor(detail: string) {
    super(`a stored job is unreadable (${detail})`);
    this.name = 'CorruptJobRowError';
  }
}

/** A row as a StoredJob: the document is checked against the contract's Job schema, not trusted. */
export function fromRow(row: JobRow): StoredJob {
  let doc: unknown;
  try {
    doc = JSON.parse(row.doc);
  } catch {
    throw new CorruptJobRowError('its document is not JSON');
  }
  const job = Job.safeParse(doc);
  if (!job.success) {
    const id = typeof doc === 'object' && doc !== null && 'id' in doc ? String(doc.id) : 'unknown id';
    throw new CorruptJobRowError(`${id}: ${job.error.issues.map((i) => `${i.path.join('.') || '(document)'} ${i.message}`).join('; ')}`);
  }
  return {
    ...job.data,
    userId: row.user_id,
    attempts: Number(row.attempts),
    workerId: row.worker_id,
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
  };
}

/** The statements whose SQL differs per database, bound to one connection (or transaction). */
export interface JobSql {
  /** The job, read without locking. */
  read(id: string): Step<StoredJob | null>;
  /** The job, its row locked until the transaction ends where the database locks rows. */
  lock(id: string): Step<StoredJob | null>;
  insert(job: StoredJob): Step<void>;
  /** Writes the job's columns if its status is still `expected` (compare-and-set); false if it moved on. */
  update(job: StoredJob, expected: JobStatus): Step<boolean>;
  remove(id: string): Step<void>;
  /** Adjusts the per-user status counters. */
  bump(userId: string, deltas: [JobStatus, number][]): Step<void>;
  /** Queued + rendering jobs of a user. */
  active(userId: string): Step<number>;
  /** The idempotency record of a user's key made at or after `since` (epoch ms), with its job if it still exists. */
  idempotent(userId: string, key: string, since: number): Step<{ requestHash: string; job: StoredJob | null } | null>;
  remember(userId: string, idem: IdempotencyInput, jobId: string, at: number): Step<void>;
  /** The id new ids must stay above (the newest stored). */
  idFloor(): Step<string | null>;
  /** Makes one user's creates take turns (where the transaction alone does not). */
  lockUser(userId: string): Step<void>;
  /** The oldest queued job, locked for a claim, with the lease clock's now (epoch ms). */
  oldestQueued(): Step<{ job: StoredJob; now: number } | null>;
  /** Rendering jobs, locked: all of them, or those whose lease lapsed. */
  abandoned(all: boolean): Step<StoredJob[]>;
  /** Announces a change to other processes at commit (where there are any). */
  notify(change: JobChange): Step<void>;
}

export interface SqlDriver {
  /** Runs `body` in one write transaction; `group`: it may share a commit with others of the same turn. */
  transaction<T>(body: (sql: JobSql) => Step<T>, options?: { group?: boolean }): Promise<T>;
  /** Runs `body` outside a transaction (single reads). */
  read<T>(body: (sql: JobSql) => Step<T>): Promise<T>;
  list(query: ListQuery): Promise<ListResult>;
  renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export class SqlJobStore implements JobStore {
  private readonly events = new EventEmitter();
  protected readonly ids = new IdGenerator('job_');
  private closed = false;

  constructor(protected readonly driver: SqlDriver) {
    this.events.setMaxListeners(0);
  }

  async create(input: NewJob, options: CreateOptions): Promise<CreateResult> {
    const result = await this.driver.transaction((sql) => this.createIn(sql, input, options), { group: true });
    if (result.kind === 'created') this.emit({ kind: 'created', job: result.job });
    return result;
  }

  async findIdempotent(userId: string, key: string, ttlMs: number): Promise<{ requestHash: string; job: StoredJob } | null> {
    const prior = await this.driver.read((sql) => sql.idempotent(userId, key, Date.now() - ttlMs));
    return prior?.job ? { requestHash: prior.requestHash, job: prior.job } : null;
  }

  async get(id: string, userId: string | null): Promise<StoredJob | null> {
    const job = await this.driver.read((sql) => sql.read(id));
    return job && (userId === null || job.userId === userId) ? job : null;
  }

  list(query: ListQuery): Promise<ListResult> {
    return this.driver.list(query);
  }

  async transition(id: string, userId: string | null, req: TransitionRequest, expectWorker?: string): Promise<TransitionResult> {
    const result = await this.driver.transaction((sql) => this.transitionIn(sql, id, userId, req, expectWorker));
    if (result.ok) this.emit({ kind: 'updated', job: result.job });
    return result;
  }

  async setProgress(id: string, workerId: string, progress: number): Promise<StoredJob | null> {
    const updated = await this.driver.transaction((sql) => this.progressIn(sql, id, workerId, progress));
    if (updated) this.emit({ kind: 'updated', job: updated });
    return updated;
  }

  async claimNext(workerId: string, leaseMs: number): Promise<StoredJob | null> {
    const claimed = await this.driver.transaction((sql) => this.claimIn(sql, workerId, leaseMs));
    if (claimed) this.emit({ kind: 'updated', job: claimed });
    return claimed;
  }

  renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    return this.driver.renewLease(id, workerId, leaseMs);
  }

  async recoverAbandoned(options: { all: boolean }): Promise<RecoverResult> {
    const changed = await this.driver.transaction((sql) => this.recoverIn(sql, options.all));
    for (const job of changed) this.emit({ kind: 'updated', job });
    return {
      requeued: changed.filter((j) => j.status === 'queued').map((j) => j.id),
      failed: changed.filter((j) => j.status === 'failed').map((j) => j.id),
    };
  }

  async setOutput(id: string, userId: string, output: JobOutput): Promise<StoredJob | null> {
    const updated = await this.driver.transaction((sql) => this.outputIn(sql, id, userId, output));
    if (updated) this.emit({ kind: 'updated', job: updated });
    return updated;
  }

  async delete(id: string, userId: string): Promise<TransitionResult> {
    const result = await this.driver.transaction((sql) => this.deleteIn(sql, id, userId));
    if (result.ok) this.emit({ kind: 'deleted', job: result.job });
    return result;
  }

  activeCount(userId: string): Promise<number> {
    return this.driver.read((sql) => sql.active(userId));
  }

  subscribe(listener: (change: JobChange) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.events.removeAllListeners();
    await this.driver.close();
  }

  /** Tells every listener; one that throws does not stop the others or the write that was made. */
  protected emit(change: JobChange): void {
    if (this.closed) return;
    for (const listener of this.events.listeners('change') as ((c: JobChange) => void)[]) {
      try {
        listener(change);
      } catch {
        // a listener's own fault; the change is committed regardless
      }
    }
  }

  private *createIn(sql: JobSql, input: NewJob, options: CreateOptions): Step<CreateResult> {
    // The quota check, the idempotency key and the insert are atomic per user.
    yield* sql.lockUser(input.userId);
    const now = Date.now();
    const idem = options.idempotency;
    if (idem) {
      const prior = yield* sql.idempotent(input.userId, idem.key, now - options.idempotencyTtlMs);
      if (prior) {
        if (prior.requestHash !== idem.requestHash) return { kind: 'conflict' };
        if (prior.job) return { kind: 'replayed', job: prior.job };
        // The first job was deleted since: the key starts over.
      }
    }
    const active = yield* sql.active(input.userId);
    if (active >= options.maxActive) return { kind: 'quota_exceeded', active };
    const job = newStoredJob(this.ids.next(yield* sql.idFloor()), input, new Date(now).toISOString());
    yield* sql.insert(job);
    yield* sql.bump(job.userId, [[job.status, 1]]);
    if (idem) yield* sql.remember(input.userId, idem, job.id, now);
    yield* sql.notify({ kind: 'created', job });
    return { kind: 'created', job };
  }

  private *transitionIn(
    sql: JobSql, id: string, userId: string | null, req: TransitionRequest, expectWorker: string | undefined,
  ): Step<TransitionResult> {
    const job = yield* sql.lock(id);
    if (!job || (userId !== null && job.userId !== userId)) return { ok: false, reason: 'not_found' };
    if (expectWorker !== undefined && job.workerId !== expectWorker) return { ok: false, reason: 'invalid_transition', job };
    return yield* this.write(sql, job, req);
  }

  private *progressIn(sql: JobSql, id: string, workerId: string, progress: number): Step<StoredJob | null> {
    const job = yield* sql.lock(id);
    if (!job || job.workerId !== workerId) return null;
    const p = nextProgress(job, progress);
    if (p === null) return null;
    const next: StoredJob = { ...job, progress: p, updatedAt: new Date().toISOString() };
    if (!(yield* sql.update(next, job.status))) return null;
    yield* sql.notify({ kind: 'updated', job: next });
    return next;
  }

  private *outputIn(sql: JobSql, id: string, userId: string, output: JobOutput): Step<StoredJob | null> {
    const job = yield* sql.lock(id);
    if (!job || job.userId !== userId || job.status !== 'completed') return null;
    const next: StoredJob = { ...job, output, updatedAt: new Date().toISOString() };
    if (!(yield* sql.update(next, job.status))) return null;
    yield* sql.notify({ kind: 'updated', job: next });
    return next;
  }

  private *claimIn(sql: JobSql, workerId: string, leaseMs: number): Step<StoredJob | null> {
    const oldest = yield* sql.oldestQueued();
    if (!oldest) return null;
    const r = yield* this.write(sql, oldest.job, { to: 'rendering', workerId, leaseUntil: oldest.now + leaseMs });
    return r.ok ? r.job : null;
  }

  private *recoverIn(sql: JobSql, all: boolean): Step<StoredJob[]> {
    const out: StoredJob[] = [];
    for (const job of yield* sql.abandoned(all)) {
      const r = yield* this.write(sql, job, { to: 'queued', reason: 'worker_lost' });
      if (r.ok) out.push(r.job);
    }
    return out;
  }

  private *deleteIn(sql: JobSql, id: string, userId: string): Step<TransitionResult> {
    const job = yield* sql.lock(id);
    if (!job || job.userId !== userId) return { ok: false, reason: 'not_found' };
    if (!canDelete(job.status)) return { ok: false, reason: 'invalid_transition', job };
    yield* sql.remove(id);
    yield* sql.bump(job.userId, [[job.status, -1]]);
    yield* sql.notify({ kind: 'deleted', job });
    return { ok: true, job };
  }

  /** Persists a transition of a read (locked) job, with compare-and-set on its status. */
  private *write(sql: JobSql, job: StoredJob, req: TransitionRequest): Step<TransitionResult> {
    let next: StoredJob;
    try {
      next = applyTransition(job, req, new Date());
    } catch (err) {
      if (err instanceof InvalidTransitionError) return { ok: false, reason: 'invalid_transition', job };
      throw err;
    }
    if (!(yield* sql.update(next, job.status))) return { ok: false, reason: 'invalid_transition', job };
    if (next.status !== job.status) yield* sql.bump(job.userId, [[job.status, -1], [next.status, 1]]);
    yield* sql.notify({ kind: 'updated', job: next });
    return { ok: true, job: next };
  }
}
