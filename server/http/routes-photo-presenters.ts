// Extension `presenters`, the caller's own: POST /api/presenters makes a photo presenter from a
// portrait asset and its Face Mesh points (server/presenters), DELETE removes one (409 while a
// queued or rendering job speaks with it), and its face-crop thumbnail. Another user's id
// answers 404 on every path.
import type { FastifyInstance } from 'fastify';
import { PHOTO_PRESENTER_ID_PATTERN } from '../../shared/contract/index.js';
import { PresenterError } from '../presenters/photo-presenters.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { userOf } from './principal.js';

const asApiError = (err: PresenterError) => new ApiError(err.code, err.message, err.details);

export function photoPresenterRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const photos = ctx.photoPresenters;

  app.post('/api/presenters', async (request, reply) => {
    const userId = userOf(request);
    try {
      const presenter = await photos.create(userId, request.body);
      request.log.info({ userId, presenterId: presenter.id }, 'photo presenter made');
      return reply.code(201).header('Location', `/api/presenters/${presenter.id}`).send(presenter);
    } catch (err) {
      if (err instanceof PresenterError) throw asApiError(err);
      throw err;
    }
  });

  app.delete<{ Params: { id: string } }>('/api/presenters/:id', async (request, reply) => {
    try {
      await photos.remove(request.params.id, userOf(request));
    } catch (err) {
      if (err instanceof PresenterError) throw asApiError(err);
      throw err;
    }
    request.log.info({ presenterId: request.params.id }, 'photo presenter deleted');
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/api/presenters/:id/thumbnail.jpg', async (request, reply) => {
    const id = request.params.id;
    const jpeg = PHOTO_PRESENTER_ID_PATTERN.test(id) ? await photos.thumbnail(id, userOf(request)) : null;
    if (!jpeg) throw new ApiError('not_found', 'no such presenter');
    return reply.type('image/jpeg').header('Cache-Control', 'private, max-age=3600').header('X-Content-Type-Options', 'nosniff').send(jpeg);
  });
}
