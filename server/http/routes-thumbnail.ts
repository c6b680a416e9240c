// Extension `output`: POST /api/jobs/{id}/thumbnail {at} makes a completed job's thumbnail again
// from the frame of its stored video at `at` seconds (no render), and the job's thumbnailUrl
// changes (a new `?v=`), so a client holding the old image by its URL fetches the new one.
import type { FastifyInstance } from 'fastify';
import { issuesToDetails, OUTPUT_FPS, ThumbnailRequest } from '../../shared/contract/index.js';
import { videoFrameJpeg } from '../engine/encode/still.js';
import { EngineError } from '../engine/types.js';
import { toJob } from '../jobs/store.js';
import { isJson } from '../../shared/media-type.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { notFound } from './routes-jobs.js';
import { userOf } from './principal.js';

export function thumbnailRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { id: string } }>('/api/jobs/:id/thumbnail', async (request) => {
    const userId = userOf(request);
    if (!isJson(request.headers['content-type'])) {
      throw new ApiError('unsupported_media_type', 'send {"at": seconds} as Content-Type: application/json');
    }
    const job = await ctx.store.get(request.params.id, userId);
    if (!job) throw notFound();
    const parsed = ThumbnailRequest.safeParse(request.body, { reportInput: true });
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error);
      throw new ApiError('validation_failed', `the thumbnail request is invalid: ${details.map((d) => d.path).join(', ')}`, details);
    }
    if (job.status !== 'completed' || !job.output) {
      throw new ApiError('not_ready', `the job is ${job.status}; its thumbnail can be chosen once it is completed`);
    }
    const last = Math.max(0, job.output.durationSeconds - 1 / OUTPUT_FPS);
    const { at } = parsed.data;
    if (at > last) {
      const message = `must be at most ${Math.floor(last * 1000) / 1000} (the video is ${job.output.durationSeconds} s long)`;
      throw new ApiError('validation_failed', `the thumbnail request is invalid: at ${message}`, [{ path: 'at', message }]);
    }
    const jpeg = await videoFrameJpeg(ctx.storage.localPath(job.id, 'video'), at).catch((err: unknown) => {
      if (err instanceof EngineError && err.code === 'engine_unavailable') throw new ApiError('unavailable', err.message);
      request.log.error({ err, jobId: job.id }, 'thumbnail not cut');
      throw new ApiError('internal_error', 'the frame could not be cut from the video');
    });
    await ctx.storage.replace(job.id, 'thumbnail', jpeg);
    const version = Date.now().toString(36);
    const updated = await ctx.store.setOutput(job.id, userId, { ...job.output, thumbnailUrl: `/api/jobs/${job.id}/thumbnail.jpg?v=${version}` });
    // Deleted meanwhile: its files are gone with it.
    if (!updated) throw notFound();
    request.log.info({ jobId: job.id, at }, 'thumbnail made again');
    return toJob(updated);
  });
}
