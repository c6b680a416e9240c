// The job state machine: the ONE place that decides which status changes are possible and
// what each change writes, and which jobs may be deleted. Every store applies job changes
// through `applyTransition` (and deletes after `canDelete`), so no other code path can move a
// job (see ../../shared/design/render-api.md, Statuses).
import { isTerminal, LIMITS } from '../../shared/contract/index.js';
import type { JobError, JobOutput, JobStatus } from '../../shared/contract/index.js';
import type { StoredJob } from './store.js';

export type TransitionRequest =
  | { to: 'rendering'; workerId: string; leaseUntil: number }
  | { to: 'completed'; output: JobOutput }
  | { to: 'failed'; error: JobError }
  | { to: 'canceled' }
  /** The only backward step: a render that did not finish (its worker died or shut down). */
  | { to: 'queued'; reason: 'worker_lost' | 'shutdown' };

const ALLOWED: Record<JobStatus, readonly JobStatus[]> = {
  queued: ['rendering', 'canceled'],
  rendering: ['completed', 'failed', 'canceled', 'queued'],
  completed: [],
  failed: [],
  canceled: [],
};

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: JobStatus,
    readonly to: JobStatus,
  ) {
    super(isTerminal(from) ? `the job is already ${from}` : `a ${from} job cannot become ${to}`);
    this.name = 'InvalidTransitionError';
  }
}

export function canTransition(from: JobStatus, to: JobStatus): boolean {
  return ALLOWED[from].includes(to);
}

/** Only a finished job can be deleted: a queued or rendering one is canceled first. */
export function canDelete(status: JobStatus): boolean {
  return isTerminal(status);
}

/** Returns the job after the change, or throws InvalidTransitionError. Pure: stores persist the result. */
export function applyTransition(job: StoredJob, req: TransitionRequest, now: Date): StoredJob {
  if (!canTransition(job.status, req.to)) throw new InvalidTransitionError(job.status, req.to);
  const at = now.toISOString();
  const base: StoredJob = { ...job, status: req.to, updatedAt: at };
  switch (req.to) {
    case 'rendering':
      return {
        ...base,
        attempts: job.attempts + 1,
        startedAt: job.startedAt ?? at,
        progress: 0,
        workerId: req.workerId,
        leaseUntil: req.leaseUntil,
      };
    case 'completed':
      return { ...base, progress: 1, finishedAt: at, output: req.output, error: null, workerId: null, leaseUntil: null };
    case 'failed':
      return { ...base, finishedAt: at, error: req.error, workerId: null, leaseUntil: null };
    case 'canceled':
      return { ...base, finishedAt: at, workerId: null, leaseUntil: null };
    case 'queued': {
      // A worker that died used up an attempt; after the last one the job fails for good.
      if (req.reason === 'worker_lost' && job.attempts >= LIMITS.maxAttempts) {
        return applyTransition(
          job,
          { to: 'failed', error: { code: 'worker_lost', message: `the render stopped unexpectedly ${job.attempts} times` } },
          now,
        );
      }
      // A graceful shutdown does not count as an attempt.
      const attempts = req.reason === 'shutdown' ? Math.max(0, job.attempts - 1) : job.attempts;
      return { ...base, attempts, progress: 0, workerId: null, leaseUntil: null };
    }
  }
}

/** Progress only moves forward, and only while rendering. */
export function nextProgress(job: StoredJob, progress: number): number | null {
  if (job.status !== 'rendering' || !Number.isFinite(progress)) return null;
  const p = Math.min(1, Math.max(0, progress));
  return p > job.progress ? p : null;
}
