// The job store for teams: PostgreSQL (`pg`), shared by any number of API processes and
// render workers on any machines. The algorithm is sql-store.ts's, as for SQLite; this file
// holds PostgreSQL's statements and the cross-process notifications:
//  - every change is one transaction that locks the job row, applies state.ts's transition
//    and keeps the per-user counters right; a worker claims with FOR UPDATE SKIP LOCKED;
//  - leases are timed by the database's clock, so workers' clocks do not matter;
//  - every committed change is announced with NOTIFY (sent at commit, in commit order), and
//    `subscribe` relays other processes' changes: SSE clients of any API process see a
//    worker's progress, and a worker sees a cancel made through any API process.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import { JOB_STATUSES, zeroCounts } from '../../shared/contract/index.js';
import { migratePostgres } from './migrations/runner.js';
import { POSTGRES_MIGRATIONS } from './migrations/postgres.js';
import { PgListener } from './pg-listener.js';
import { fromRow, runAsync, SqlJobStore, wait } from './sql-store.js';
import type { JobRow, JobSql, SqlDriver, Step } from './sql-store.js';
import { JOB_CHANGE_KINDS, StoredJob, toJob } from './store.js';
import type { ListQuery, ListResult } from './store.js';

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

/** What a NOTIFY carries; payloads of other senders on the channel fail this and are ignored. */
const Notice = z.object({
  /** Origin: the store instance that made the change (it already told its own listeners). */
  o: z.string(),
  k: z.enum(JOB_CHANGE_KINDS),
  /** The job, or only its id when it does not fit in a notification. */
  j: StoredJob.optional(),
  id: z.string().optional(),
});
type Notice = z.infer<typeof Notice>;

/** A pooled client in a transaction, or the pool itself for single statements. */
type Queryable = pg.PoolClient | pg.Pool;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class PostgresJobStore extends SqlJobStore {
  private readonly origin: string;
  private listener: PgListener | null = null;

  private constructor(
    readonly pool: pg.Pool,
    /** NOTIFY channel: one per schema, so stores in other schemas of the database stay apart. */
    readonly channel: string,
  ) {
    const origin = randomBytes(8).toString('hex');
    super(new PgDriver(pool, channel, origin));
    this.origin = origin;
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
      // The open's own error is reported; a pool that cannot end cleanly is dropped with it.
      else await pool.end().catch(() => undefined);
      throw err;
    }
  }

  /** Drops idempotency records past their lifetime. */
  async pruneIdempotency(olderThanMs: number): Promise<number> {
    return (await this.pool.query('DELETE FROM idempotency WHERE created_at < $1', [Date.now() - olderThanMs])).rowCount ?? 0;
  }

  override async close(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    await listener?.close();
    await super.close();
  }

  /** Another process's change: tell this process's listeners. */
  private relay(payload: string): void {
    const parsed = Notice.safeParse(parseJson(payload));
    if (!parsed.success) return; // not one of ours
    const n = parsed.data;
    if (n.o === this.origin) return; // told our listeners at commit already
    if (n.j) return this.emit({ kind: n.k, job: n.j });
    if (n.id) {
      void this.get(n.id, null).then(
        (job) => job && this.emit({ kind: n.k, job }),
        () => undefined,
      );
    }
  }
}

/** PostgreSQL's statements, on a transaction's client or (outside transactions) the pool. */
class PgDriver implements SqlDriver {
  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly origin: string,
  ) {}

  /** Runs `body` in a transaction; retried when PostgreSQL picked it as a deadlock or serialization victim. */
  async transaction<T>(body: (sql: JobSql) => Step<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const c = await this.pool.connect();
      try {
        await c.query('BEGIN');
        const out = await runAsync(body(this.statements(c)));
        await c.query('COMMIT');
        c.release();
        return out;
      } catch (err) {
        // A broken connection cannot roll back: it is released as broken just below, and the
        // transaction's own error is the one the caller gets.
        await c.query('ROLLBACK').catch(() => undefined);
        c.release(err as Error); // not back to the pool: the connection may be broken
        const code = (err as { code?: string }).code;
        if ((code === '40P01' || code === '40001') && attempt < 5) continue;
        throw err;
      }
    }
  }

  read<T>(body: (sql: JobSql) => Step<T>): Promise<T> {
    return runAsync(body(this.statements(this.pool)));
  }

  async list(query: ListQuery): Promise<ListResult> {
    const { text, values } = listStatement(query);
    const { rows: joined } = await this.pool.query<Partial<JobRow> & { id: string | null; counts: Record<string, string | number> }>(text, values);
    const counts = zeroCounts();
    for (const st of JOB_STATUSES) counts[st] = Number(joined[0]?.counts[st] ?? 0);
    const rows = joined.filter((r): r is JobRow & { id: string; counts: Record<string, number> } => r.id !== null);
    const more = rows.length > query.limit;
    const jobs = rows.slice(0, query.limit).map(fromRow);
    return { jobs, nextBeforeId: more ? jobs[jobs.length - 1]!.id : null, counts };
  }

  async renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    const r = await this.pool.query(
      `UPDATE jobs SET lease_until = ${NOW_MS} + $3 WHERE id = $1 AND worker_id = $2 AND status = 'rendering'`,
      [id, workerId, leaseMs],
    );
    return r.rowCount === 1;
  }

  private ended = false;

  /** Ends the pool once (pg refuses a second end). */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.pool.end();
  }

  private statements(c: Queryable): JobSql {
    const { channel, origin } = this;
    const one = function* (sql: string, id: string): Step<StoredJob | null> {
      if (!possibleId(id)) return null;
      const { rows } = yield* wait(c.query<JobRow>(sql, [id]));
      return rows[0] ? fromRow(rows[0]) : null;
    };
    const count = function* (userId: string): Step<number> {
      const { rows } = yield* wait(
        c.query<{ n: string }>("SELECT coalesce(sum(n), 0) AS n FROM user_counts WHERE user_id = $1 AND status IN ('queued', 'rendering')", [userId]),
      );
      return Number(rows[0]!.n);
    };
    return {
      read: (id) => one(`SELECT ${COLS} FROM jobs WHERE id = $1`, id),
      lock: (id) => one(`SELECT ${COLS} FROM jobs WHERE id = $1 FOR UPDATE`, id),
      *insert(job) {
        yield* wait(c.query(
          'INSERT INTO jobs (id, user_id, status, search, attempts, worker_id, lease_until, doc, title) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
          [job.id, job.userId, job.status, searchText(job.text), job.attempts, job.workerId, job.leaseUntil, JSON.stringify(toJob(job)), job.title == null ? null : columnText(job.title)],
        ));
      },
      *update(job, expected) {
        const r = yield* wait(c.query(
          'UPDATE jobs SET status = $2, attempts = $3, worker_id = $4, lease_until = $5, doc = $6 WHERE id = $1 AND status = $7',
          [job.id, job.status, job.attempts, job.workerId, job.leaseUntil, JSON.stringify(toJob(job)), expected],
        ));
        return r.rowCount === 1;
      },
      *remove(id) {
        yield* wait(c.query('DELETE FROM jobs WHERE id = $1', [id]));
      },
      // Rows are always locked in the same order, so transitions cannot deadlock on the counters.
      *bump(userId, deltas) {
        const sorted = [...deltas].sort((a, b) => (a[0] < b[0] ? -1 : 1));
        const values = sorted.map((_, i) => `($1, $${2 * i + 2}, $${2 * i + 3}::bigint)`).join(', ');
        yield* wait(c.query(
          `INSERT INTO user_counts (user_id, status, n) VALUES ${values} ON CONFLICT (user_id, status) DO UPDATE SET n = user_counts.n + excluded.n`,
          [userId, ...sorted.flat()],
        ));
      },
      active: count,
      *idempotent(userId, key, since) {
        const { rows } = yield* wait(c.query<JobRow & { request_hash: string }>(
          `SELECT i.request_hash, j.doc, j.user_id, j.attempts, j.worker_id, j.lease_until
           FROM idempotency i LEFT JOIN jobs j ON j.id = i.job_id
           WHERE i.user_id = $1 AND i.key = $2 AND i.created_at >= $3`,
          [userId, key, since],
        ));
        const row = rows[0];
        if (!row) return null;
        return { requestHash: row.request_hash, job: row.doc === null ? null : fromRow(row) };
      },
      *remember(userId, idem, jobId, at) {
        yield* wait(c.query(
          `INSERT INTO idempotency (user_id, key, request_hash, job_id, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (user_id, key) DO UPDATE SET request_hash = excluded.request_hash, job_id = excluded.job_id, created_at = excluded.created_at`,
          [userId, idem.key, idem.requestHash, jobId, at],
        ));
      },
      // Other processes create too: the newest id is read at every create.
      *idFloor() {
        return (yield* wait(c.query<{ id: string | null }>('SELECT max(id) AS id FROM jobs'))).rows[0]!.id;
      },
      *lockUser(userId) {
        yield* wait(c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`ps-create:${userId}`]));
      },
      *oldestQueued() {
        // SKIP LOCKED: workers claiming at once each get a different job, nobody waits.
        const { rows } = yield* wait(c.query<JobRow & { now: string }>(
          `SELECT ${COLS}, ${NOW_MS} AS now FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`,
        ));
        const row = rows[0];
        return row ? { job: fromRow(row), now: Number(row.now) } : null;
      },
      *abandoned(all) {
        // SKIP LOCKED: several processes may recover at once; a job being finished right now is left alone.
        const { rows } = yield* wait(c.query<JobRow>(
          `SELECT ${COLS} FROM jobs WHERE status = 'rendering' ${all ? '' : `AND lease_until < ${NOW_MS}`} ORDER BY id FOR UPDATE SKIP LOCKED`,
        ));
        return rows.map(fromRow);
      },
      // PostgreSQL delivers the notification when (and only if) the transaction commits.
      *notify(change) {
        let payload = JSON.stringify({ o: origin, k: change.kind, j: change.job } satisfies Notice);
        if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
          // Long texts: receivers read the job themselves; a deleted job travels without its text.
          payload =
            change.kind === 'deleted'
              ? JSON.stringify({ o: origin, k: change.kind, j: { ...change.job, text: '' } } satisfies Notice)
              : JSON.stringify({ o: origin, k: change.kind, id: change.job.id } satisfies Notice);
        }
        yield* wait(c.query('SELECT pg_notify($1, $2)', [channel, payload]));
      },
    };
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
