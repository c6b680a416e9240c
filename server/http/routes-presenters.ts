// Extension `presenters`: the built-in cast and the caller's own presenters, and the built-ins'
// thumbnails (drawn by the engine from the same art the video shows; 503 while no engine).
import type { FastifyInstance } from 'fastify';
import type { PresenterList } from '../../shared/contract/index.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { userOf } from './principal.js';

export function presenterRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/api/presenters', async (request): Promise<PresenterList> => ({ presenters: await ctx.presenters.list(userOf(request)) }));

  app.get<{ Params: { id: string } }>('/api/presenters/:id/thumbnail.png', async (request, reply) => {
    const presenter = ctx.presenters.builtIn(request.params.id);
    if (!presenter) throw new ApiError('not_found', 'no such built-in presenter');
    const draw = ctx.engine?.presenterThumbnail?.bind(ctx.engine);
    if (!draw) throw new ApiError('unavailable', 'no render engine that draws presenters is available on this server yet');
    const bytes = await draw(presenter.id).catch((err: unknown) => {
      app.log.warn({ err, presenter: presenter.id }, 'engine could not draw a presenter thumbnail');
      throw new ApiError('unavailable', 'the render engine could not draw this presenter right now');
    });
    return reply.type('image/png').header('Cache-Control', 'private, max-age=3600').send(bytes);
  });
}
