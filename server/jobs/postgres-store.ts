// The job store for teams: PostgreSQL (`pg`), shared by any number of API processes and
// render workers on any machines. Same interface and semantics as sqlite-store.ts:
//  - every change is one transaction that locks the job row, applies state.ts's transition
//    and keeps the per-user counters right; a worker claims with FOR UPDATE SKIP LOCKED;
//  - leases are timed by the database's clock, so workers' clocks do not matter;
//  - every committed change is announced with NOTIFY (sent at commit, in commit order), and
//    `subscribe` relays other processes' changes: SSE clients of any API process see a
//    worker's progress, and a worker sees a cancel made through any API process.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { JOB_STATUSES } from '../../shared/contract/index.js';
import type { JobStatus, StatusCounts } from '../../shared/contract/index.js';
import { IdGenerator } from './ids.js';
import { migratePostgres } from './migrations/runner.js';
import { POSTGRES_MIGRATIONS } from './migrations/postgres.js';
import { PgListener } from './pg-listener.js';
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

interface Row {
  doc: string;
  user_id: string;
  attempts: number;
  worker_id: string | null;
  lease_until: string | null;
}

const COLS = 'doc, user_id, attempts, worker_id, lease_until';
/** The database's clock in epoch ms: one clock for every lease, whatever the machines' clocks say. */
const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7900;

export interface PgStoreOptions {
  /** postgres://user:pass@host:port/db (a `?options=-c search_path=…` selects a schema). */
  url: string;
  /** Connections in the pool (default 8). */
  poolSize?: number;
  /** Connection problems of the listener (it reconnects by itself). */
  onError?: (err: Error) => void;
}

interface Notice {
  /** Origin: the store instance that made the change (it already told its own listeners). */
  o: string;
  k: JobChange['kind'];
  /** The job, or only its id when it does not fit in a notification. */
  j?: StoredJob;
  id?: string;
}

type Client = pg.PoolClient;

export class PostgresJobStore implements JobStore {
  private readonly events = new EventEmitter();
  private readonly ids = new IdGenerator('job_');
  private readonly origin = randomBytes(8).toString('hex');
  private listener: PgListener | null = null;
  private closed = false;

  private constructor(
    readonly pool: pg.Pool,
    /** NOTIFY channel: one per schema, so stores in other schemas of the database stay apart. */
    readonly channel: string,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Connects, migrates the schema (once, whoever starts first) and starts listening. */
  static async open(options: PgStoreOptions): Promise<PostgresJobStore> {
    const config: pg.PoolConfig = { connectionString: options.url, max: options.poolSize ?? 8 };
    const pool = new pg.Pool(config);
    const onError = options.onError ?? (() => undefined);
    pool.on('error', onError); // an idle connection dropped: the pool makes a new one when needed
    let store: PostgresJobStore | null = null;
    try {
      const client = await pool.connect();
      let schema: string;
      try {
        await migratePostgres(client, POSTGRES_MIGRATIONS);
        schema = (await client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
      } finally {
        client.release();
      }
      store = new PostgresJobStore(pool, schema === 'public' ? 'ps_jobs' : `ps_jobs_${schema}`.slice(0, 63));
      const s = store;
      s.listener = new PgListener(config, s.channel, (payload) => s.relay(payload), onError);
      await s.listener.start();
      return s;
    } catch (err) {
      if (store) await store.close();
      else await pool.end().catch(() => undefined);
      throw err;
    }
  }

  async create(input: NewJob, options: CreateOptions): Promise<CreateResult> {
    const result = await this.tx(async (c): Promise<CreateResult> => {
      // One user's creates take turns: the quota check, the idempotency key and the insert are atomic.
      await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ps-create:${input.userId}`]);
      const now = Date.now();
      const idem = options.idempotency;
      if (idem) {
        const prior = await this.idempotent(c, input.userId, idem.key, now - options.idempotencyTtlMs);
        if (prior) {
          if (prior.requestHash !== idem.requestHash) return { kind: 'conflict' };
          if (prior.job) return { kind: 'replayed', job: prior.job };
          // The first job was deleted since: the key starts over.
        }
      }
      const active = await this.active(c, input.userId);
      if (active >= options.maxActive) return { kind: 'quota_exceeded', active };
      const maxId = (await c.query<{ id: string | null }>('SELECT max(id) AS id FROM jobs')).rows[0]!.id;
      const at = new Date(now).toISOString();
      const job = newStoredJob(this.ids.next(maxId), input, at);
      await c.query(
        'INSERT INTO jobs (id, user_id, status, search, attempts, worker_id, lease_until, doc, title) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [job.id, job.userId, job.status, searchText(job.text), job.attempts, job.workerId, job.leaseUntil, JSON.stringify(toJob(job)), job.title == null ? null : columnText(job.title)],
      );
      await this.bump(c, job.userId, [[job.status, 1]]);
      if (idem) {
        await c.query(
          `INSERT INTO idempotency (user_id, key, request_hash, job_id, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (user_id, key) DO UPDATE SET request_hash = excluded.request_hash, job_id = excluded.job_id, created_at = excluded.created_at`,
          [input.userId, idem.key, idem.requestHash, job.id, now],
        );
      }
      await this.notify(c, { kind: 'created', job });
      return { kind: 'created', job };
    });
    if (result.kind === 'created') this.emit({ kind: 'created', job: result.job });
    return result;
  }

  async findIdempotent(userId: string, key: string, ttlMs: number): Promise<{ requestHash: string; job: StoredJob } | null> {
    const prior = await this.idempotent(this.pool, userId, key, Date.now() - ttlMs);
    return prior?.job ? { requestHash: prior.requestHash, job: prior.job } : null;
  }

  async get(id: string, userId: string | null): Promise<StoredJob | null> {
    if (!possibleId(id)) return null;
    const { rows } = await this.pool.query<Row>(`SELECT ${COLS} FROM jobs WHERE id = $1`, [id]);
    const job = rows[0] ? fromRow(rows[0]) : null;
    if (!job || (userId !== null && job.userId !== userId)) return null;
    return job;
  }

  async list(query: ListQuery): Promise<ListResult> {
    const { text, values } = listStatement(query);
    const { rows: joined } = await this.pool.query<Partial<Row> & { id: string | null; counts: Record<string, string | number> }>(text, values);
    const counts = Object.fromEntries(JOB_STATUSES.map((st) => [st, Number(joined[0]?.counts[st] ?? 0)])) as StatusCounts;
    const rows = joined.filter((r): r is Row & { id: string; counts: Record<string, number> } => r.id !== null);
    const more = rows.length > query.limit;
    const jobs = rows.slice(0, query.limit).map(fromRow);
    return { jobs, nextBeforeId: more ? jobs[jobs.length - 1]!.id : null, counts };
  }

  async transition(id: string, userId: string | null, req: TransitionRequest, expectWorker?: string): Promise<TransitionResult> {
    if (!possibleId(id)) return { ok: false, reason: 'not_found' };
    const result = await this.tx(async (c): Promise<TransitionResult> => {
      const job = await this.lock(c, id);
      if (!job || (userId !== null && job.userId !== userId)) return { ok: false, reason: 'not_found' };
      if (expectWorker !== undefined && job.workerId !== expectWorker) return { ok: false, reason: 'invalid_transition', job };
      return this.write(c, job, req);
    });
    if (result.ok) this.emit({ kind: 'updated', job: result.job });
    return result;
  }

  async setProgress(id: string, workerId: string, progress: number): Promise<StoredJob | null> {
    const updated = await this.tx(async (c): Promise<StoredJob | null> => {
      const job = await this.lock(c, id);
      if (!job || job.workerId !== workerId) return null;
      const p = nextProgress(job, progress);
      if (p === null) return null;
      const next: StoredJob = { ...job, progress: p, updatedAt: new Date().toISOString() };
      await c.query('UPDATE jobs SET doc = $2 WHERE id = $1', [id, JSON.stringify(toJob(next))]);
      await this.notify(c, { kind: 'updated', job: next });
      return next;
    });
    if (updated) this.emit({ kind: 'updated', job: updated });
    return updated;
  }

  async claimNext(workerId: string, leaseMs: number): Promise<StoredJob | null> {
    const claimed = await this.tx(async (c): Promise<StoredJob | null> => {
      // SKIP LOCKED: workers claiming at once each get a different job, nobody waits.
      const { rows } = await c.query<Row & { now: string }>(
        `SELECT ${COLS}, ${NOW_MS} AS now FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      const row = rows[0];
      if (!row) return null;
      const r = await this.write(c, fromRow(row), { to: 'rendering', workerId, leaseUntil: Number(row.now) + leaseMs });
      return r.ok ? r.job : null;
    });
    if (claimed) this.emit({ kind: 'updated', job: claimed });
    return claimed;
  }

  async renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE jobs SET lease_until = ${NOW_MS} + $3 WHERE id = $1 AND worker_id = $2 AND status = 'rendering'`,
      [id, workerId, leaseMs],
    );
    return r.rowCount === 1;
  }

  async recoverAbandoned(options: { all: boolean }): Promise<RecoverResult> {
    const changed = await this.tx(async (c) => {
      // SKIP LOCKED: several processes may recover at once; a job being finished right now is left alone.
      const { rows } = await c.query<Row>(
        `SELECT ${COLS} FROM jobs WHERE status = 'rendering' ${options.all ? '' : `AND lease_until < ${NOW_MS}`} ORDER BY id FOR UPDATE SKIP LOCKED`,
      );
      const out: StoredJob[] = [];
      for (const row of rows) {
        const r = await this.write(c, fromRow(row), { to: 'queued', reason: 'worker_lost' });
        if (r.ok) out.push(r.job);
      }
      return out;
    });
    for (const job of changed) this.emit({ kind: 'updated', job });
    return {
      requeued: changed.filter((j) => j.status === 'queued').map((j) => j.id),
      failed: changed.filter((j) => j.status === 'failed').map((j) => j.id),
    };
  }

  async delete(id: string, userId: string): Promise<TransitionResult> {
    if (!possibleId(id)) return { ok: false, reason: 'not_found' };
    const result = await this.tx(async (c): Promise<TransitionResult> => {
      const job = await this.lock(c, id);
      if (!job || job.userId !== userId) return { ok: false, reason: 'not_found' };
      if (job.status === 'queued' || job.status === 'rendering') return { ok: false, reason: 'invalid_transition', job };
      await c.query('DELETE FROM jobs WHERE id = $1', [id]);
      await this.bump(c, job.userId, [[job.status, -1]]);
      await this.notify(c, { kind: 'deleted', job });
      return { ok: true, job };
    });
    if (result.ok) this.emit({ kind: 'deleted', job: result.job });
    return result;
  }

  async activeCount(userId: string): Promise<number> {
    return this.active(this.pool, userId);
  }

  /** Drops idempotency records past their lifetime. */
  async pruneIdempotency(olderThanMs: number): Promise<number> {
    return (await this.pool.query('DELETE FROM idempotency WHERE created_at < $1', [Date.now() - olderThanMs])).rowCount ?? 0;
  }

  subscribe(listener: (change: JobChange) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.events.removeAllListeners();
    await this.listener?.close();
    await this.pool.end().catch(() => undefined);
  }

  /** Runs `fn` in a transaction; retried when PostgreSQL picked it as a deadlock or serialization victim. */
  private async tx<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const c = await this.pool.connect();
      try {
        await c.query('BEGIN');
        const out = await fn(c);
        await c.query('COMMIT');
        c.release();
        return out;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        c.release(err as Error); // not back to the pool: the connection may be broken
        const code = (err as { code?: string }).code;
        if ((code === '40P01' || code === '40001') && attempt < 5) continue;
        throw err;
      }
    }
  }

  private async lock(c: Client, id: string): Promise<StoredJob | null> {
    const { rows } = await c.query<Row>(`SELECT ${COLS} FROM jobs WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Persists a transition of a locked job (inside the caller's transaction). */
  private async write(c: Client, job: StoredJob, req: TransitionRequest): Promise<TransitionResult> {
    let next: StoredJob;
    try {
      next = applyTransition(job, req, new Date());
    } catch (err) {
      if (err instanceof InvalidTransitionError) return { ok: false, reason: 'invalid_transition', job };
      throw err;
    }
    const r = await c.query(
      'UPDATE jobs SET status = $2, attempts = $3, worker_id = $4, lease_until = $5, doc = $6 WHERE id = $1 AND status = $7',
      [job.id, next.status, next.attempts, next.workerId, next.leaseUntil, JSON.stringify(toJob(next)), job.status],
    );
    if (r.rowCount !== 1) return { ok: false, reason: 'invalid_transition', job };
    if (next.status !== job.status) await this.bump(c, job.userId, [[job.status, -1], [next.status, 1]]);
    await this.notify(c, { kind: 'updated', job: next });
    return { ok: true, job: next };
  }

  /** Adjusts per-user counters; rows are always locked in the same order, so transitions cannot deadlock on them. */
  private async bump(c: Client, userId: string, deltas: [JobStatus, number][]): Promise<void> {
    const sorted = [...deltas].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const values = sorted.map((_, i) => `($1, $${2 * i + 2}, $${2 * i + 3}::bigint)`).join(', ');
    await c.query(
      `INSERT INTO user_counts (user_id, status, n) VALUES ${values} ON CONFLICT (user_id, status) DO UPDATE SET n = user_counts.n + excluded.n`,
      [userId, ...sorted.flat()],
    );
  }

  private async active(c: Client | pg.Pool, userId: string): Promise<number> {
    const { rows } = await c.query<{ n: string }>(
      "SELECT coalesce(sum(n), 0) AS n FROM user_counts WHERE user_id = $1 AND status IN ('queued', 'rendering')",
      [userId],
    );
    return Number(rows[0]!.n);
  }

  private async idempotent(
    c: Client | pg.Pool,
    userId: string,
    key: string,
    since: number,
  ): Promise<{ requestHash: string; job: StoredJob | null } | null> {
    const { rows } = await c.query<Row & { request_hash: string; job_user: string | null }>(
      `SELECT i.request_hash, j.doc, j.user_id, j.attempts, j.worker_id, j.lease_until
       FROM idempotency i LEFT JOIN jobs j ON j.id = i.job_id
       WHERE i.user_id = $1 AND i.key = $2 AND i.created_at >= $3`,
      [userId, key, since],
    );
    const row = rows[0];
    if (!row) return null;
    return { requestHash: row.request_hash, job: row.doc === null ? null : fromRow(row) };
  }

  /** Queues a notification; PostgreSQL delivers it when (and only if) the transaction commits. */
  private async notify(c: Client, change: JobChange): Promise<void> {
    let payload = JSON.stringify({ o: this.origin, k: change.kind, j: change.job } satisfies Notice);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
      // Long texts: receivers read the job themselves; a deleted job travels without its text.
      payload =
        change.kind === 'deleted'
          ? JSON.stringify({ o: this.origin, k: change.kind, j: { ...change.job, text: '' } } satisfies Notice)
          : JSON.stringify({ o: this.origin, k: change.kind, id: change.job.id } satisfies Notice);
    }
    await c.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
  }

  /** Another process's change: tell this process's listeners. */
  private relay(payload: string): void {
    let n: Notice;
    try {
      n = JSON.parse(payload) as Notice;
    } catch {
      return;
    }
    if (n.o === this.origin) return; // told our listeners at commit already
    if (n.j) return this.emit({ kind: n.k, job: n.j });
    if (n.id) {
      void this.get(n.id, null).then(
        (job) => job && this.emit({ kind: n.k, job }),
        () => undefined,
      );
    }
  }

  private emit(change: JobChange): void {
    if (!this.closed) this.events.emit('change', change);
  }
}

/**
 * The statement behind list() (exported for the benchmark's EXPLAIN ANALYZE). One statement,
 * so one round trip and one snapshot: the page and the counters agree. The counters row is
 * always there; the page joins it (no page rows: one row of NULLs).
 */
export function listStatement(query: ListQuery): { text: string; values: unknown[] } {
  const statuses = query.statuses?.length ? [...new Set(query.statuses)] : null;
  const values: unknown[] = [query.userId];
  const common: string[] = [];
  if (query.q) common.push(`strpos(search, $${values.push(searchText(query.q))}) > 0`);
  if (query.beforeId) common.push(`id < $${values.push(query.beforeId)}`);
  const limit = `$${values.push(query.limit + 1)}`;
  const page = (status: string | null) =>
    `SELECT id, ${COLS} FROM jobs WHERE ${['user_id = $1', ...(status ? [`status = ${status}`] : []), ...common].join(' AND ')} ORDER BY id DESC LIMIT ${limit}`;
  // One ordered index range per status, merged: with "status IN (…)" PostgreSQL would walk
  // the whole id index of every user to find a few jobs of one.
  const pages = statuses
    ? `SELECT * FROM (${statuses.map((st) => `(${page(`$${values.push(st)}`)})`).join(' UNION ALL ')}) u ORDER BY id DESC LIMIT ${limit}`
    : page(null);
  const text = `SELECT c.counts, p.id, p.doc, p.user_id, p.attempts, p.worker_id, p.lease_until
    FROM (SELECT coalesce(json_object_agg(status, n), '{}') AS counts FROM user_counts WHERE user_id = $1) c
    LEFT JOIN LATERAL (${pages}) p ON true
    ORDER BY p.id DESC`;
  return { text, values };
}

/** Ids from URLs reach the store as they are; one with U+0000 (which PostgreSQL text refuses) names no job. */
function possibleId(id: string): boolean {
  return !id.includes('\0');
}

/**
 * The lower-cased text that `q` searches. PostgreSQL text cannot hold U+0000, which a script
 * may contain: it is stored, and searched for, as U+FFFF (a noncharacter, absent from scripts).
 * The job itself keeps its exact text (the JSON document escapes it).
 */
function searchText(text: string): string {
  return columnText(text.toLowerCase());
}

/** Text for a column (the title's copy too): U+0000 as U+FFFF, the exact text stays in the JSON document. */
function columnText(text: string): string {
  return text.replaceAll('\0', '\uFFFF');
}

function fromRow(row: Row): StoredJob {
  return {
    ...(JSON.parse(row.doc) as StoredJob),
    userId: row.user_id,
    attempts: row.attempts,
    workerId: row.worker_id,
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
  };
}
