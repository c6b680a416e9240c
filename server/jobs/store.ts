// The job store interface. Async on purpose: the embedded store is SQLite (sqlite-store.ts),
// and a PostgreSQL store for teams implements the same interface. Anything SQL-specific stays
// inside a store; callers (HTTP routes, the worker queue) only see this file.
import { z } from 'zod';
import { Job } from '../../shared/contract/index.js';
import type { JobStatus, StatusCounts } from '../../shared/contract/index.js';
import type { TransitionRequest } from './state.js';

/** A job as stored: the contract's Job plus what the server keeps to itself. */
export const StoredJob = Job.extend({
  userId: z.string(),
  attempts: z.number().int().min(0),
  /** Worker holding the render lease (null unless rendering). */
  workerId: z.string().nullable(),
  /** Lease end, epoch ms (null unless rendering). */
  leaseUntil: z.number().nullable(),
});
export type StoredJob = z.infer<typeof StoredJob>;

/**
 * What a create stores: the job's content (voiceId canonical, locale-and-name) for a user;
 * `title` optional; `warnings` found when the request was checked (the script's language against the voice's).
 */
export type NewJob = Pick<StoredJob, 'userId' | 'title' | 'text' | 'templateId' | 'voiceId' | 'params'> & Partial<Pick<StoredJob, 'warnings' | 'scenes' | 'presenterId'>>;

export interface IdempotencyInput {
  key: string;
  /** Hash of the request body: same key with another hash is a conflict. */
  requestHash: string;
}

export type CreateResult =
  | { kind: 'created'; job: StoredJob }
  | { kind: 'replayed'; job: StoredJob }
  | { kind: 'conflict' }
  /** The user already has `maxActive` queued + rendering jobs. */
  | { kind: 'quota_exceeded'; active: number };

export interface CreateOptions {
  idempotency?: IdempotencyInput;
  /** Active (queued + rendering) jobs allowed per user; checked atomically with the insert. */
  maxActive: number;
  /** Idempotency records older than this are ignored (24 h by the contract). */
  idempotencyTtlMs: number;
}

export interface ListQuery {
  userId: string;
  statuses?: JobStatus[];
  /** Case-insensitive "contains" on the text. */
  q?: string;
  limit: number;
  /** Return jobs with ids strictly below this one (newest first). */
  beforeId?: string;
}

export interface ListResult {
  jobs: StoredJob[];
  /** Optional fast path: the same jobs as the contract's Job JSON text (answered without re-serialising). */
  jobsJson?: string[];
  /** The id of the last job when more may follow, else null. */
  nextBeforeId: string | null;
  counts: StatusCounts;
}

export type TransitionResult =
  | { ok: true; job: StoredJob }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'invalid_transition'; job: StoredJob };

export const JOB_CHANGE_KINDS = ['created', 'updated', 'deleted'] as const;

export interface JobChange {
  job: StoredJob;
  /** 'deleted' when the job was removed (the payload is its last state). */
  kind: (typeof JOB_CHANGE_KINDS)[number];
}

export interface RecoverResult {
  requeued: string[];
  failed: string[];
}

export interface JobStore {
  /** Creates a job (or replays/conflicts on an idempotency key), atomically with the quota check. */
  create(job: NewJob, options: CreateOptions): Promise<CreateResult>;
  /** The job first created under an idempotency key of a user (within `ttlMs`), with its body hash. */
  findIdempotent(userId: string, key: string, ttlMs: number): Promise<{ requestHash: string; job: StoredJob } | null>;
  /** The job if it belongs to `userId` (null: the job of anyone, for workers). */
  get(id: string, userId: string | null): Promise<StoredJob | null>;
  list(query: ListQuery): Promise<ListResult>;
  /**
   * Applies a transition through state.ts's applyTransition, with compare-and-set on the
   * status read, so concurrent changes never overwrite each other. `userId` scopes the
   * lookup (null: any user). `expectWorker` guards worker-side changes: a worker that lost
   * its lease cannot complete or fail a job that moved on.
   */
  transition(id: string, userId: string | null, req: TransitionRequest, expectWorker?: string): Promise<TransitionResult>;
  /** Records progress if it moves forward and the job is still rendering under `workerId`. */
  setProgress(id: string, workerId: string, progress: number): Promise<StoredJob | null>;
  /** Atomically takes the oldest queued job for `workerId`, marking it rendering. */
  claimNext(workerId: string, leaseMs: number): Promise<StoredJob | null>;
  /** Extends a running job's lease; false if the worker no longer holds it. */
  renewLease(id: string, workerId: string, leaseMs: number): Promise<boolean>;
  /**
   * Puts back jobs whose render was abandoned: all `rendering` jobs when `all` (start-up of
   * the only process), else those whose lease lapsed. After the last attempt: failed/worker_lost.
   */
  recoverAbandoned(options: { all: boolean }): Promise<RecoverResult>;
  /** Deletes a terminal job of `userId`. */
  delete(id: string, userId: string): Promise<TransitionResult>;
  /** Active (queued + rendering) jobs of a user. */
  activeCount(userId: string): Promise<number>;
  /** Called after every committed change (in this process; a shared store may also relay others'). */
  subscribe(listener: (change: JobChange) => void): () => void;
  close(): Promise<void>;
}

/** The contract's view of a stored job (drops the server-only fields). */
export function toJob(s: StoredJob): Job {
  const { userId: _u, attempts: _a, workerId: _w, leaseUntil: _l, ...job } = s;
  return job;
}

/** A new job as both stores create it: queued, nothing rendered, no attempt made yet. */
export function newStoredJob(id: string, input: NewJob, at: string): StoredJob {
  const { userId, title, text, templateId, voiceId, params, warnings = [], scenes, presenterId } = input;
  return {
    id, status: 'queued', title: title ?? null, text, templateId, voiceId, params, progress: 0,
    createdAt: at, updatedAt: at, startedAt: null, finishedAt: null, output: null, error: null, warnings,
    ...(scenes ? { scenes } : {}),
    ...(presenterId !== undefined ? { presenterId } : {}),
    userId, attempts: 0, workerId: null, leaseUntil: null,
  };
}
