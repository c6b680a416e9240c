// Extension `assets`: the creator's files. Upload (streamed, sniffed, probed: server/assets),
// list, one asset, its content (byte ranges) and thumbnail, delete. Another user's asset id
// answers 404 on every path. The upload route reads its body itself: no JSON body limit, the
// per-kind limits instead.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ASSET_ID_PATTERN, ASSET_MEDIA_TYPES, AssetListQuery, assetKindOf, issuesToDetails, LIMITS,
  type Asset, type AssetList, type AssetMediaType,
} from '../../shared/contract/index.js';
import { AssetError } from '../assets/asset-error.js';
import { cleanAssetName } from '../assets/asset-name.js';
import type { StoredAsset } from '../assets/asset-store.js';
import { UploadAbortedError } from '../assets/receive.js';
import type { AssetFile } from '../storage/asset-storage.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { decodeCursor, encodeCursor } from './routes-jobs.js';
import { parseRange } from './routes-media.js';
import { userOf } from './principal.js';

const QUOTA_RETRY_SECONDS = 3600;

const toAsset = ({ userId: _u, ...asset }: StoredAsset): Asset => asset;
const notFound = () => new ApiError('not_found', 'no such asset');

function asApiError(err: AssetError): ApiError {
  return new ApiError(err.code, err.message, undefined, err.code === 'quota_exceeded' ? { 'Retry-After': String(QUOTA_RETRY_SECONDS) } : {});
}

/** What the upload route needs from its request before any byte of the body is read. */
function uploadHead(request: FastifyRequest): { name: string; mediaType: AssetMediaType; declaredBytes: number | null } {
  const raw = request.headers['content-type'];
  const declared = raw?.split(';')[0]!.trim().toLowerCase() ?? '';
  if (!assetKindOf(declared)) {
    throw new ApiError(
      'unsupported_media_type',
      `${raw ? `${declared.slice(0, 100)} is not a media type we keep` : 'the upload has no Content-Type'}; send the file's own type, one of ${Object.keys(ASSET_MEDIA_TYPES).join(', ')}`,
    );
  }
  const query = (request.query ?? {}) as Record<string, unknown>;
  const rawName = query.name;
  if (typeof rawName !== 'string' || !rawName) {
    throw new ApiError('validation_failed', 'the upload needs the file name: POST /api/assets?name=…', [{ path: 'name', message: 'is required' }]);
  }
  const name = cleanAssetName(rawName);
  if (!name) throw new ApiError('validation_failed', 'the file name is empty once cleaned', [{ path: 'name', message: 'must hold a visible character' }]);
  const length = request.headers['content-length'];
  return { name, mediaType: declared as AssetMediaType, declaredBytes: length !== undefined && /^\d+$/.test(length) ? Number(length) : null };
}

export function assetRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { assets } = ctx;

  // Its own scope: the upload body is the file, read by the route (no parser, no body limit).
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    // Before Fastify looks at the body: the type, the name and a declared size too large.
    scope.addHook('onRequest', async (request, reply) => {
      // Refused here, the body is never read: close the connection after the answer, not drain it.
      reply.header('Connection', 'close');
      const head = uploadHead(request);
      try {
        await assets.precheck({ userId: userOf(request), kind: assetKindOf(head.mediaType)!, declaredBytes: head.declaredBytes });
      } catch (err) {
        if (err instanceof AssetError) throw asApiError(err);
        throw err;
      }
      reply.removeHeader('Connection');
    });
    scope.post('/api/assets', async (request, reply) => {
      const userId = userOf(request);
      const head = uploadHead(request);
      let asset: StoredAsset;
      try {
        asset = await assets.ingest({ userId, ...head, kind: assetKindOf(head.mediaType)!, body: request.raw });
      } catch (err) {
        if (err instanceof UploadAbortedError) {
          request.log.info({ userId }, 'upload aborted by the client; nothing kept');
          throw new ApiError('bad_request', err.message);
        }
        if (err instanceof AssetError) {
          request.log.info({ userId, code: err.code }, `upload refused: ${err.message}`);
          // Unread body left (a limit passed): close after answering instead of reading it all.
          if (!request.raw.complete) reply.header('Connection', 'close');
          throw asApiError(err);
        }
        throw err;
      }
      request.log.info({ userId, assetId: asset.id, kind: asset.kind, sizeBytes: asset.sizeBytes }, 'asset stored');
      return reply.code(201).header('Location', `/api/assets/${asset.id}`).send(toAsset(asset));
    });
  });

  app.get('/api/assets', async (request): Promise<AssetList> => {
    const parsed = AssetListQuery.safeParse(request.query ?? {}, { reportInput: true });
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error);
      throw new ApiError('validation_failed', `bad query: ${details.map((d) => d.path).join(', ')}`, details);
    }
    const q = parsed.data;
    const page = await assets.store.list({
      userId: userOf(request),
      limit: q.limit ?? LIMITS.listDefaultLimit,
      ...(q.kind ? { kind: q.kind } : {}),
      ...(q.q ? { q: q.q } : {}),
      ...(q.cursor !== undefined ? { beforeId: decodeCursor(q.cursor, ASSET_ID_PATTERN) } : {}),
    });
    return { assets: page.assets.map(toAsset), nextCursor: page.nextBeforeId ? encodeCursor(page.nextBeforeId) : null };
  });

  const owned = async (request: FastifyRequest<{ Params: { id: string } }>): Promise<StoredAsset> => {
    const id = request.params.id;
    const asset = ASSET_ID_PATTERN.test(id) ? await assets.store.get(id, userOf(request)) : null;
    if (!asset) throw notFound();
    return asset;
  };

  app.get<{ Params: { id: string } }>('/api/assets/:id', async (request) => toAsset(await owned(request)));

  const serve = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, file: AssetFile) => {
    const asset = await owned(request);
    const stored = await assets.files.stat(asset.id, file);
    if (!stored) throw new ApiError('not_found', 'the file of this asset is gone');
    reply.header('ETag', stored.etag).header('Cache-Control', 'private, max-age=31536000, immutable');
    reply.header('X-Content-Type-Options', 'nosniff').header('Accept-Ranges', 'bytes');
    reply.type(file === 'content' ? asset.mediaType : 'image/jpeg');
    if (file === 'content' && asset.kind === 'document') {
      reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(asset.name)}`);
    }
    const inm = request.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === stored.etag || t.trim() === '*')) return reply.code(304).send();
    const ifRange = request.headers['if-range'];
    const range = parseRange(ifRange && ifRange !== stored.etag ? undefined : request.headers.range, stored.size);
    if (range === 'unsatisfiable') {
      throw new ApiError('range_not_satisfiable', `the range is outside the file (${stored.size} bytes)`, undefined, {
        'Content-Range': `bytes */${stored.size}`,
      });
    }
    if (!range) return reply.code(200).header('Content-Length', String(stored.size)).send(assets.files.read(asset.id, file));
    reply.header('Content-Range', `bytes ${range.start}-${range.end}/${stored.size}`);
    reply.header('Content-Length', String(range.end - range.start + 1));
    return reply.code(206).send(assets.files.read(asset.id, file, range));
  };
  app.get<{ Params: { id: string } }>('/api/assets/:id/content', (req, reply) => serve(req, reply, 'content'));
  app.get<{ Params: { id: string } }>('/api/assets/:id/thumbnail.jpg', (req, reply) => serve(req, reply, 'thumbnail'));

  app.delete<{ Params: { id: string } }>('/api/assets/:id', async (request, reply) => {
    const asset = await owned(request);
    const r = await assets.remove(asset.id, asset.userId);
    if (!r.ok && r.reason === 'not_found') throw notFound();
    if (!r.ok && r.reason === 'in_use') {
      throw new ApiError(
        'asset_in_use',
        `"${asset.name}" is used by ${r.jobIds.length === 1 ? 'a job' : `${r.jobIds.length} jobs`} still queued or rendering (${r.jobIds.slice(0, 5).join(', ')}); cancel ${r.jobIds.length === 1 ? 'it' : 'them'} or wait until ${r.jobIds.length === 1 ? 'it finishes' : 'they finish'}`,
      );
    }
    if (!r.ok && r.reason === 'presenter') {
      throw new ApiError(
        'asset_in_use',
        `"${asset.name}" is the photo of ${r.presenterIds.length === 1 ? 'a presenter' : `${r.presenterIds.length} presenters`} (${r.presenterIds.slice(0, 5).join(', ')}); delete ${r.presenterIds.length === 1 ? 'that presenter' : 'those presenters'} first`,
      );
    }
    request.log.info({ assetId: asset.id }, 'asset deleted');
    return reply.code(204).send();
  });
}
