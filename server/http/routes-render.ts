// POST /api/render: validate against the contract, the catalog and (scenes) the caller's assets, honour Idempotency-Key,
// apply the per-user rate and active-job limits, and create the job (202).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { issuesToDetails, LIMITS, RenderRequest, requestText } from '../../shared/contract/index.js';
import type { ErrorDetail, RenderParams } from '../../shared/contract/index.js';
import { fillParams } from '../../shared/scene/catalog.js';
import { scriptWarnings } from '../../shared/language/detect.js';
import { toJob } from '../jobs/store.js';
import type { NewJob } from '../jobs/store.js';
import { isJson } from '../../shared/media-type.js';
import { bodyHash } from './canonical-json.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { userOf } from './principal.js';
import { checkPresenter, normaliseScenes } from './render-scenes.js';
import { checkVoicePacks, type VoiceUse } from './voice-packs-ready.js';

const QUOTA_RETRY_SECONDS = 30;

const invalid = (details: ErrorDetail[]) =>
  new ApiError('validation_failed', `the render request is invalid: ${details.map((d) => d.path).join(', ')}`, details);

async function validate(ctx: ServerContext, body: unknown, userId: string, log: FastifyRequest['log']): Promise<NewJob> {
  const parsed = RenderRequest.safeParse(body, { reportInput: true });
  if (!parsed.success) throw invalid(issuesToDetails(parsed.error));
  const req = parsed.data;
  const details: ErrorDetail[] = [];
  const template = ctx.catalog.template(req.templateId);
  if (!template) details.push({ path: 'templateId', message: `unknown template "${req.templateId}"; see GET /api/templates` });
  const voice = ctx.catalog.voice(req.voiceId);
  if (!voice) details.push({ path: 'voiceId', message: `unknown voice "${req.voiceId}"; see GET /api/voices` });
  await checkPresenter(ctx.presenters, req.presenterId, userId, 'presenterId', details);
  let params: RenderParams | null = null;
  if (template) {
    params = fillParams(template.id, req.params, ctx.catalog.templates);
    if (!template.aspectRatios.includes(params.aspectRatio)) {
      details.push({
        path: 'params.aspectRatio',
        message: `the template "${template.id}" supports ${template.aspectRatios.join(', ')}`,
      });
    }
  }
  if (!template || !voice || !params) throw invalid(details);
  // The scenes are checked even when the top level has a problem: one answer names them all.
  const resolved = req.scenes
    ? await normaliseScenes(
        req.scenes,
        { template, voice, presenterId: req.presenterId, params },
        { catalog: ctx.catalog, assets: ctx.assets.store, presenters: ctx.presenters, userId },
        details,
      )
    : null;
  if (details.length) throw invalid(details);
  // Each voice by the field that chose it; a scene without its own speaks in the request's voice.
  const uses: VoiceUse[] = req.scenes
    ? req.scenes.map((sc, i) => (sc.voiceId === undefined ? { path: 'voiceId', voice } : { path: `scenes[${i}].voiceId`, voice: ctx.catalog.voice(sc.voiceId)! }))
    : [{ path: 'voiceId', voice }];
  await checkVoicePacks(ctx.engine, uses.filter((u, i) => uses.findIndex((o) => o.path === u.path) === i), details, log);
  if (details.length) throw invalid(details);
  const text = requestText(req).trim();
  const base = {
    userId, title: req.title?.trim() ?? null, text, templateId: template.id, voiceId: voice.id, params,
    ...(req.presenterId !== undefined ? { presenterId: req.presenterId } : {}),
  };
  return resolved ? { ...base, scenes: resolved.scenes, warnings: resolved.warnings } : { ...base, warnings: scriptWarnings(text, voice) };
}

function idempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (key.length < 1 || key.length > LIMITS.idempotencyKeyMaxChars) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 1–255 characters', [
      { path: 'Idempotency-Key', message: `must be 1–${LIMITS.idempotencyKeyMaxChars} characters` },
    ]);
  }
  return key;
}

export function renderRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/render', async (request, reply) => {
    const userId = userOf(request);
    if (!isJson(request.headers['content-type'])) {
      throw new ApiError('unsupported_media_type', 'send the render request as Content-Type: application/json');
    }
    const key = idempotencyKey(request);
    const input = await validate(ctx, request.body, userId, request.log);
    const requestHash = key ? bodyHash(request.body) : '';
    const ttl = LIMITS.idempotencyTtlMs;

    if (key) {
      const prior = await ctx.store.findIdempotent(userId, key, ttl);
      if (prior && prior.requestHash !== requestHash) throw conflict();
      if (prior) return reply.code(200).header('Idempotent-Replayed', 'true').send(toJob(prior.job));
    }
    const slot = ctx.limiter.take(userId);
    if (!slot.ok) {
      throw new ApiError('rate_limited', `at most ${ctx.limits.createsPerMinute} renders per minute; try again shortly`, undefined, {
        'Retry-After': String(slot.retryAfterSeconds),
      });
    }
    const result = await ctx.store.create(input, {
      maxActive: ctx.limits.activeJobsPerUser,
      idempotencyTtlMs: ttl,
      ...(key ? { idempotency: { key, requestHash } } : {}),
    });
    switch (result.kind) {
      case 'created':
        request.log.info({ jobId: result.job.id, userId }, 'job created');
        return reply.code(202).header('Location', `/api/jobs/${result.job.id}`).send(toJob(result.job));
      case 'replayed':
        ctx.limiter.refund(userId);
        return reply.code(200).header('Idempotent-Replayed', 'true').send(toJob(result.job));
      case 'conflict':
        ctx.limiter.refund(userId);
        throw conflict();
      case 'quota_exceeded':
        ctx.limiter.refund(userId);
        throw new ApiError(
          'quota_exceeded',
          `you have ${result.active} queued or rendering jobs (at most ${ctx.limits.activeJobsPerUser}); wait for some to finish`,
          undefined,
          { 'Retry-After': String(QUOTA_RETRY_SECONDS) },
        );
    }
  });
}

function conflict(): ApiError {
  return new ApiError('idempotency_conflict', 'this Idempotency-Key was already used with a different request body');
}
