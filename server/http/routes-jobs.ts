// The caller's jobs: list (keyset paging, status filter, q, counts), one job, cancel, delete.
import type { FastifyInstance } from 'fastify';
import { issuesToDetails, JOB_ID_PATTERN, JobListQuery, LIMITS } from '../../shared/contract/index.js';
import type { JobList } from '../../shared/contract/index.js';
import { toJob } from '../jobs/store.js';
import type { TransitionResult } from '../jobs/store.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { pageKey } from './list-cache.js';
import { userOf } from './principal.js';

/** The cursor is opaque to clients: the last listed id, base64url-encoded. */
export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64url');
}

/** The id in a cursor of a list of jobs (or, with its pattern, of another list). */
export function decodeCursor(cursor: string, idPattern: RegExp = JOB_ID_PATTERN): string {
  const id = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!idPattern.test(id)) {
    throw new ApiError('validation_failed', 'the cursor is not one this server handed out', [
      { path: 'cursor', message: 'must be a nextCursor value from an earlier page' },
    ]);
  }
  return id;
}

export function notFound(): ApiError {
  return new ApiError('not_found', 'no such job');
}

function orFail(result: TransitionResult, action: string) {
  if (result.ok) return result.job;
  if (result.reason === 'not_found') throw notFound();
  throw new ApiError('invalid_transition', `cannot ${action} a ${result.job.status} job`);
}

export function jobRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/jobs', async (request, reply) => {
    const userId = userOf(request);
    const parsed = JobListQuery.safeParse(request.query ?? {}, { reportInput: true });
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error);
      throw new ApiError('validation_failed', `bad query: ${details.map((d) => d.path).join(', ')}`, details);
    }
    const q = parsed.data;
    const cacheKey = pageKey(q);
    const cached = ctx.listCache?.get(userId, cacheKey);
    if (cached) return reply.type('application/json; charset=utf-8').send(cached);
    const generation = ctx.listCache?.generation(userId) ?? 0;
    const result = await ctx.store.list({
      userId,
      limit: q.limit ?? LIMITS.listDefaultLimit,
      ...(q.status?.length ? { statuses: q.status } : {}),
      ...(q.q ? { q: q.q } : {}),
      ...(q.cursor !== undefined ? { beforeId: decodeCursor(q.cursor) } : {}),
    });
    // A JobList, assembled from the stored Job JSON (no parse and re-serialise per job).
    const nextCursor = result.nextBeforeId ? encodeCursor(result.nextBeforeId) : null;
    const jobs = result.jobsJson ?? result.jobs.map((j) => JSON.stringify(toJob(j)));
    const tail: Omit<JobList, 'jobs'> = { nextCursor, counts: result.counts };
    const body = `{"jobs":[${jobs.join(',')}],${JSON.stringify(tail).slice(1)}`;
    ctx.listCache?.set(userId, cacheKey, body, generation);
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.get<{ Params: { id: string } }>('/api/jobs/:id', async (request) => {
    const job = await ctx.store.get(request.params.id, userOf(request));
    if (!job) throw notFound();
    return toJob(job);
  });

  app.post<{ Params: { id: string } }>('/api/jobs/:id/cancel', async (request) => {
    const result = await ctx.store.transition(request.params.id, userOf(request), { to: 'canceled' });
    const job = orFail(result, 'cancel');
    request.log.info({ jobId: job.id }, 'job canceled');
    return toJob(job);
  });

  app.delete<{ Params: { id: string } }>('/api/jobs/:id', async (request, reply) => {
    const result = await ctx.store.delete(request.params.id, userOf(request));
    if (!result.ok && result.reason === 'invalid_transition') {
      throw new ApiError('invalid_transition', `only finished jobs can be deleted; cancel the ${result.job.status} job first`);
    }
    const job = orFail(result, 'delete');
    // The job is gone either way; a file that cannot be removed now is logged, not the caller's problem.
    await ctx.storage.remove(job.id).catch((err: unknown) => request.log.error({ err, jobId: job.id }, 'removing job files failed'));
    request.log.info({ jobId: job.id }, 'job deleted');
    return reply.code(204).send();
  });
}
