// The Fastify app of the render API: auth, limits, errors, and the routes of
// ../../shared/design/render-api.md. No input can produce a 500 or a stack trace.
import { randomBytes } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Health } from '../../shared/contract/index.js';
import { authenticate } from './auth.js';
import type { ServerContext } from './context.js';
import { ApiError, errorBody, handleError, sendError, toApiError } from './errors.js';
import { setKey, userOf } from './principal.js';
import { catalogRoutes } from './routes-catalog.js';
import { jobRoutes } from './routes-jobs.js';
import { mediaRoutes } from './routes-media.js';
import { renderRoutes } from './routes-render.js';

/** Method lists of the contract's paths, for 405 answers to a known path with another method. */
const PATHS: [RegExp, string[]][] = [
  [/^\/api\/render$/, ['POST']],
  [/^\/api\/jobs$/, ['GET', 'HEAD']],
  [/^\/api\/jobs\/[^/]+$/, ['GET', 'HEAD', 'DELETE']],
  [/^\/api\/jobs\/[^/]+\/cancel$/, ['POST']],
  [/^\/api\/jobs\/[^/]+\/(video|captions\.vtt|thumbnail\.jpg)$/, ['GET', 'HEAD']],
  [/^\/api\/(events|templates|voices|health)$/, ['GET', 'HEAD']],
  [/^\/api\/templates\/[^/]+\/thumbnail\.jpg$/, ['GET', 'HEAD']],
  [/^\/api\/voices\/[^/]+\/sample$/, ['GET', 'HEAD']],
  [/^\/api\/voices\/[^/]+\/pack$/, ['GET', 'HEAD', 'POST']],
];

// Request ids: a random prefix per process and a counter (unique, cheap, sortable within a process).
const REQ_PREFIX = `req_${randomBytes(4).toString('hex')}`;
let reqCounter = 0;
function genReqId(): string {
  return `${REQ_PREFIX}_${(++reqCounter).toString(36)}`;
}

export function buildApp(ctx: ServerContext, logger: FastifyServerOptions['logger']): FastifyInstance {
  const app = Fastify({
    logger,
    genReqId,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: ctx.limits.bodyMaxBytes,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Malformed HTTP (bad request line, oversized headers) still gets the contract's body.
    clientErrorHandler: (err, socket) => {
      if ((err as { code?: string }).code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
      const message =
        (err as { code?: string }).code === 'HPE_HEADER_OVERFLOW' ? 'the request headers are too large' : 'the request is not valid HTTP';
      const body = JSON.stringify(errorBody('bad_request', message, genReqId()));
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // Errors before routing (bad URL, content-type parser setup) keep the contract's body.
    frameworkErrors: (err, request, reply) => {
      void sendError(reply, toApiError(err));
      request.log.info({ code: err.code }, 'framework error');
    },
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    if (request.is404 || request.url === '/api/health' || request.url.startsWith('/api/health?')) return;
    setKey(request, await authenticate(request, ctx.keys));
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const known = PATHS.find(([re]) => re.test(path));
    if (known) {
      return sendError(
        reply,
        new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${known[1].join(', ')}`, undefined, {
          Allow: known[1].join(', '),
        }),
      );
    }
    return sendError(reply, new ApiError('not_found', `no route ${request.method} ${path}`));
  });

  app.get('/api/health', async (): Promise<Health> => ({ status: 'ok', version: ctx.version }));

  app.get('/api/events', async (request, reply) => {
    const userId = userOf(request);
    if (request.method === 'HEAD') return reply.type('text/event-stream; charset=utf-8').send(); // no stream for HEAD
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': String(request.id),
    });
    res.write('retry: 3000\n: connected\n\n');
    ctx.hub.add(userId, res);
    request.log.info({ userId }, 'event stream opened');
  });

  renderRoutes(app, ctx);
  jobRoutes(app, ctx);
  mediaRoutes(app, ctx);
  catalogRoutes(app, ctx);
  return app;
}
