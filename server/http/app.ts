// The Fastify app of the render API: auth, limits, errors, and the routes of
// ../../shared/design/render-api.md. No input can produce a 500 or a stack trace.
import { randomBytes } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { API_EXTENSIONS, type Health } from '../../shared/contract/index.js';
import { authenticate } from './auth.js';
import type { ServerContext } from './context.js';
import { ApiError, errorBody, handleError, sendError, toApiError } from './errors.js';
import { setKey, userOf } from './principal.js';
import { assetRoutes } from './routes-assets.js';
import { photoPresenterRoutes } from './routes-photo-presenters.js';
import { catalogRoutes } from './routes-catalog.js';
import { jobRoutes } from './routes-jobs.js';
import { mediaRoutes } from './routes-media.js';
import { presenterRoutes } from './routes-presenters.js';
import { renderRoutes } from './routes-render.js';
import { soundRoutes } from './routes-sound.js';
import { thumbnailRoutes } from './routes-thumbnail.js';
import { decodeJsonBody, parseJsonBody } from './json-body.js';
import { EXPECTATION_FAILED, refuseOddRequest } from './request-edges.js';

/** Method lists of the contract's paths, for 405 answers to a known path with another method. */
const PATHS: [RegExp, string[]][] = [
  [/^\/api\/render$/, ['POST']],
  [/^\/api\/jobs$/, ['GET', 'HEAD']],
  [/^\/api\/jobs\/[^/]+$/, ['GET', 'HEAD', 'DELETE']],
  [/^\/api\/jobs\/[^/]+\/(cancel|thumbnail)$/, ['POST']],
  [/^\/api\/jobs\/[^/]+\/(video|captions\.vtt|captions\.srt|thumbnail\.jpg)$/, ['GET', 'HEAD']],
  [/^\/api\/(events|templates|voices|health)$/, ['GET', 'HEAD']],
  [/^\/api\/templates\/[^/]+\/thumbnail\.jpg$/, ['GET', 'HEAD']],
  [/^\/api\/voices\/[^/]+\/sample$/, ['GET', 'HEAD']],
  [/^\/api\/voices\/[^/]+\/pack$/, ['GET', 'HEAD', 'POST']],
  [/^\/api\/assets$/, ['GET', 'HEAD', 'POST']],
  [/^\/api\/assets\/[^/]+$/, ['GET', 'HEAD', 'DELETE']],
  [/^\/api\/assets\/[^/]+\/(content|thumbnail\.jpg)$/, ['GET', 'HEAD']],
  [/^\/api\/sound\/preview$/, ['POST']],
  [/^\/api\/presenters$/, ['GET', 'HEAD', 'POST']],
  [/^\/api\/presenters\/[^/]+$/, ['DELETE']],
  [/^\/api\/presenters\/[^/]+\/thumbnail\.(png|jpg)$/, ['GET', 'HEAD']],
];

const STREAM_RETRY_SECONDS = 10;

/** Every method a path of the contract takes, for a 405 to a method nobody here knows. */
const ALL_METHODS = 'GET, HEAD, POST, DELETE';
const allowedFor = (path: string) => PATHS.find(([re]) => re.test(path))?.[1].join(', ') ?? ALL_METHODS;
const isHealth = (url: string) => url === '/api/health' || url.startsWith('/api/health?');

/** A raw 405 for requests Node's parser or Fastify's router never hand to a route. */
function rawMethodNotAllowed(socket: import('node:stream').Duplex, method: string, path: string): void {
  const allow = allowedFor(path);
  const body = JSON.stringify(errorBody('method_not_allowed', `${method.slice(0, 32)} is not allowed here; use ${allow}`, genReqId()));
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${allow}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The answer to a request no route takes: 405 with Allow for a path of the contract, else 404. */
function unrouted(method: string, url: string): ApiError {
  const path = url.split('?')[0]!;
  const known = PATHS.find(([re]) => re.test(path));
  if (!known) return new ApiError('not_found', `no route ${method.slice(0, 32)} ${path}`);
  const allow = known[1].join(', ');
  return new ApiError('method_not_allowed', `${method.slice(0, 32)} is not allowed here; use ${allow}`, undefined, { Allow: allow });
}

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
    // Health checks come every few seconds from the desktop app and the web shell: logged at debug (onResponse below).
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: (req: { url?: string }) => isHealth(req.url ?? '') }),
    bodyLimit: ctx.limits.bodyMaxBytes,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // A missing Host is refused in onRequest, with the contract's body (Node's 400 has none).
    http: { requireHostHeader: false },
    // Malformed HTTP (bad request line, oversized headers) still gets the contract's body.
    clientErrorHandler: (err, socket) => {
      if ((err as { code?: string }).code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
      // A method Node's parser does not know (FOO /api/jobs): 405 with the path's methods, as for PUT.
      const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/\d\.\d\r\n/.exec(
        ((err as unknown as { rawPacket?: Buffer }).rawPacket ?? Buffer.alloc(0)).toString('latin1'),
      );
      if ((err as { code?: string }).code === 'HPE_INVALID_METHOD' && line) return rawMethodNotAllowed(socket, line[1]!, line[2]!.split('?')[0]!);
      const message =
        (err as { code?: string }).code === 'HPE_HEADER_OVERFLOW' ? 'the request headers are too large' : 'the request is not valid HTTP';
      const body = JSON.stringify(errorBody('bad_request', message, genReqId()));
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    // Errors before routing (bad URL, content-type parser setup) keep the contract's body.
    frameworkErrors: (err, request, reply) => {
      reply.header('X-Request-Id', request.id); // no onRequest hook runs for these
      void sendError(reply, toApiError(err));
      request.log.info({ code: err.code }, 'framework error');
    },
  });

  // An Expect other than 100-continue: Node would answer 417 with no body.
  app.server.on('checkExpectation', (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const body = JSON.stringify(errorBody('bad_request', EXPECTATION_FAILED, genReqId()));
    res.writeHead(417, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    res.end(body);
    req.resume();
  });
  // CONNECT never reaches a route (Node hands it to a 'connect' listener or drops the socket).
  app.server.on('connect', (req: import('node:http').IncomingMessage, socket: import('node:stream').Duplex) => rawMethodNotAllowed(socket, 'CONNECT', req.url ?? ''));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(decodeJsonBody(body as Buffer, request.headers['content-type'])));
    } catch (err) {
      done(err as Error, undefined);
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    if (isHealth(request.url)) request.log.debug({ res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'health check');
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    refuseOddRequest(request);
    // Answered before any body is read: a method the router has no route for (QUERY) is a 405 too.
    if (request.is404) throw unrouted(request.method, request.url);
    if (isHealth(request.url)) return;
    setKey(request, await authenticate(request, ctx.keys));
  });

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => sendError(reply, unrouted(request.method, request.url)));

  app.get('/api/health', async (): Promise<Health> => ({ status: 'ok', version: ctx.version, extensions: [...API_EXTENSIONS] }));

  app.get('/api/events', async (request, reply) => {
    const userId = userOf(request);
    if (request.method === 'HEAD') return reply.type('text/event-stream; charset=utf-8').send(); // no stream for HEAD
    const slot = ctx.hub.reserve(userId);
    if (!slot.ok) {
      const { caps } = ctx.hub;
      throw new ApiError(
        'rate_limited',
        slot.reason === 'user'
          ? `at most ${caps.perUser} open event streams per user; close one first`
          : `the server has ${caps.max} open event streams, its limit; try again shortly`,
        undefined,
        { 'Retry-After': String(STREAM_RETRY_SECONDS) },
      );
    }
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
    ctx.hub.add(userId, res, slot.release);
    request.log.info({ userId }, 'event stream opened');
  });

  renderRoutes(app, ctx);
  jobRoutes(app, ctx);
  mediaRoutes(app, ctx);
  thumbnailRoutes(app, ctx);
  catalogRoutes(app, ctx);
  assetRoutes(app, ctx);
  presenterRoutes(app, ctx);
  soundRoutes(app, ctx);
  photoPresenterRoutes(app, ctx);
  return app;
}
