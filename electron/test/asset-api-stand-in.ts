// A stand-in for the render API's asset routes (extension `assets`, render-api.md) over a real
// socket, for the privileged side's tests until the real routes are merged (and render and job
// routes that take scene requests, which the real ones do not yet): it checks the key,
// streams the body (never whole), refuses as the contract says (415 with the reason, 413, 429,
// 409 asset_in_use) and keeps what it took in memory. It answers nothing else but health.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assetKindOf, type Asset } from '../../shared/contract/index.js';

export interface StandInOptions {
  key: string;
  extensions?: string[];
  /** Largest body taken (413 past it). */
  maxBytes?: number;
  /** Bytes a user may keep in all (429 quota_exceeded past it). */
  quotaBytes?: number;
  /** Listens here (a restart on the same address). */
  port?: number;
  /** Reads a body slowly after this many bytes, so a test can cancel in the middle. */
  stallAfterBytes?: number;
}

export interface Received {
  name: string;
  mediaType: string;
  bytes: Buffer;
  headers: IncomingMessage['headers'];
  url: string;
}

export interface AssetApiStandIn {
  url: string;
  assets: Map<string, Asset & { bytes: Buffer }>;
  received: Received[];
  /** Requests whose body stopped before its end (a canceled upload). */
  aborted: string[];
  inUse: Set<string>;
  requests: { method: string; url: string; headers: IncomingMessage['headers'] }[];
  /** Render requests taken (POST /api/render), with their Idempotency-Key. */
  renders: { idempotencyKey: string; body: Record<string, unknown> }[];
  stop(): Promise<void>;
}

const MAGIC: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
};

function fail(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ error: { code, message, requestId: 'req_test' } }));
}

export async function startAssetApi(o: StandInOptions): Promise<AssetApiStandIn> {
  const assets = new Map<string, Asset & { bytes: Buffer }>();
  const received: Received[] = [];
  const aborted: string[] = [];
  const inUse = new Set<string>();
  const requests: AssetApiStandIn['requests'] = [];
  const renders: AssetApiStandIn['renders'] = [];
  const jobs = new Map<string, object>();
  let seq = 0;

  async function upload(req: IncomingMessage, res: ServerResponse, url: URL) {
    const name = url.searchParams.get('name');
    const mediaType = String(req.headers['content-type'] ?? '');
    const kind = assetKindOf(mediaType);
    if (!name) return fail(res, 422, 'validation_failed', 'name is required');
    if (!kind) return fail(res, 415, 'unsupported_media_type', `files of type "${mediaType}" are not taken`);
    const max = o.maxBytes ?? 10 * 1024 * 1024;
    if (Number(req.headers['content-length'] ?? 0) > max) return fail(res, 413, 'payload_too_large', `this file is over the ${max}-byte limit for ${kind} files`);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of req as AsyncIterable<Buffer>) {
        chunks.push(c);
        size += c.length;
        // Still reading (slowly): a paused socket would not notice the client going away.
        if (o.stallAfterBytes !== undefined && size >= o.stallAfterBytes) await new Promise((r) => setTimeout(r, 50));
      }
    } catch {
      aborted.push(name);
      return;
    }
    if (!req.complete) {
      aborted.push(name);
      return;
    }
    const bytes = Buffer.concat(chunks, size);
    received.push({ name, mediaType, bytes, headers: req.headers, url: req.url ?? '' });
    const ext = name.split('.').pop();
    if (MAGIC[mediaType] && !MAGIC[mediaType](bytes)) return fail(res, 415, 'unsupported_media_type', `this .${ext} is really a text file`);
    const kept = [...assets.values()].reduce((n, a) => n + a.sizeBytes, 0);
    if (o.quotaBytes !== undefined && kept + size > o.quotaBytes) return fail(res, 429, 'quota_exceeded', 'your media library is full (5 GiB); delete files you no longer need');
    const id = `ast_${String(++seq).padStart(26, '0')}`;
    const asset: Asset = {
      id, name, kind, mediaType, sizeBytes: size, width: kind === 'image' ? 2 : null, height: kind === 'image' ? 2 : null, durationSeconds: null,
      pages: kind === 'document' ? 1 : null, createdAt: new Date().toISOString(), contentUrl: `/api/assets/${id}/content`, thumbnailUrl: `/api/assets/${id}/thumbnail.jpg`,
    };
    assets.set(id, { ...asset, bytes });
    res.writeHead(201, { 'content-type': 'application/json', location: `/api/assets/${id}` });
    res.end(JSON.stringify(asset));
  }

  /** Takes a render request and answers a queued job (one per Idempotency-Key). */
  async function render(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    const idempotencyKey = String(req.headers['idempotency-key'] ?? '');
    const n = renders.findIndex((r) => r.idempotencyKey === idempotencyKey) + 1 || renders.push({ idempotencyKey, body });
    const now = new Date().toISOString();
    const avatar = { scale: 1, x: 0.8, y: 0.9 };
    const scenes = (body.scenes as Record<string, unknown>[] | undefined)?.map((sc) => ({
      text: sc.text, templateId: body.templateId, voiceId: body.voiceId, presenterId: 'ava',
      avatar: sc.avatar === null ? null : { ...avatar, ...(sc.avatar as object | undefined) },
      background: sc.background ? { fit: 'cover', ...(sc.background as object) } : null, transition: sc.transition ?? 'cut',
      ...(sc.minSeconds !== undefined ? { minSeconds: sc.minSeconds } : {}),
    }));
    const job = {
      id: `job_${String(n).padStart(26, '0')}`, status: 'queued', title: body.title ?? null, text: (body.text as string | undefined) ?? scenes!.map((sc) => sc.text).join('\n\n'),
      templateId: body.templateId, voiceId: body.voiceId, params: { aspectRatio: '16:9', avatar }, progress: 0,
      createdAt: now, updatedAt: now, startedAt: null, finishedAt: null, output: null, error: null, warnings: [], ...(scenes ? { scenes } : {}),
    };
    jobs.set(job.id, job);
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify(job));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    if (url.pathname === '/api/health') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ status: 'ok', version: '9.9.9', extensions: o.extensions ?? ['title', 'assets', 'scenes'] }));
    }
    if (req.headers.authorization !== `Bearer ${o.key}`) return fail(res, 401, 'unauthorized', 'a valid API key is required');
    if (url.pathname === '/api/assets' && req.method === 'POST') return void upload(req, res, url);
    if (url.pathname === '/api/render' && req.method === 'POST') return void render(req, res);
    const job = /^\/api\/jobs\/([^/]+)$/.exec(url.pathname);
    if (job && req.method === 'GET') {
      const j = jobs.get(decodeURIComponent(job[1]!));
      if (!j) return fail(res, 404, 'not_found', 'no such job');
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(j));
    }
    const strip = ({ bytes: _b, ...a }: Asset & { bytes: Buffer }): Asset => a;
    if (url.pathname === '/api/assets' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ assets: [...assets.values()].reverse().map(strip), nextCursor: null }));
    }
    const m = /^\/api\/assets\/([^/]+)(\/content|\/thumbnail\.jpg)?$/.exec(url.pathname);
    const a = m && assets.get(decodeURIComponent(m[1]!));
    if (!m || !a) return fail(res, 404, 'not_found', 'no such asset');
    if (req.method === 'DELETE') {
      if (inUse.has(a.id)) return fail(res, 409, 'asset_in_use', `"${a.name}" is still needed by a queued job; delete it once that job has finished`);
      assets.delete(a.id);
      res.writeHead(204);
      return res.end();
    }
    if (m[2] === '/content') {
      res.writeHead(200, { 'content-type': a.mediaType, 'content-length': a.bytes.length, 'x-content-type-options': 'nosniff' });
      return res.end(a.bytes);
    }
    if (m[2] === '/thumbnail.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.end(Buffer.from('jpeg-thumb'));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(strip(a)));
  });
  await new Promise<void>((r) => server.listen(o.port ?? 0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, assets, received, aborted, inUse, requests, renders,
    stop: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
