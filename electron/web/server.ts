// The web shell: serves the built renderer and the bridge over HTTP (POST /bridge/<method>) and
// SSE (GET /bridge/events), media through /media/…; every browser is its own anonymous user.
// The render API key comes from the server environment (or the local studio it starts) and is
// never sent to a browser.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { StudioEvent } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import { EventHub } from '../services/events.js';
import type { LocalStudio } from '../services/local-studio.js';
import { ProfileStore, type EnvProfileConfig } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createStudio, type Studio } from '../services/studio.js';
import { CLIENT_SCRIPT_PATH, StaticFiles } from './static-files.js';
import { loadClientScript } from './client-script.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { UserCookies } from './user-cookie.js';

export interface WebShellOptions {
  port: number;
  host: string;
  /** Root of the app (package.json), for dist/renderer, resources and the client source. */
  root: string;
  dataDir: string;
  version: string;
  env: EnvProfileConfig | null;
  /** Used when there is no environment profile. */
  localStudio: LocalStudio | null;
  log: (line: string) => void;
  cookieSecret?: Buffer;
  /** Default: <root>/dist/renderer. */
  rendererDir?: string;
  /** How long an anonymous user's services stay in memory unused (default 30 minutes). */
  idleMs?: number;
}

export interface WebShell {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY = 6 * 1024 * 1024; // CSV imports carry up to 5 MB of text

async function cookieSecret(dataDir: string): Promise<Buffer> {
  const file = join(dataDir, 'cookie-secret');
  try {
    const s = await readFile(file);
    if (s.length >= 32) return s;
  } catch {
    // first run
  }
  const s = randomBytes(32);
  await writeFile(file, s, { mode: 0o600 });
  return s;
}

/** No Origin header (same-origin GET/HEAD, curl) or one naming this host. */
function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (!origin) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false; // "null" and other opaque origins
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new Error('too large'), { tooLarge: true }));
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume(); // drain the rest so the 413 reaches the client
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startWebShell(o: WebShellOptions): Promise<WebShell> {
  await mkdir(o.dataDir, { recursive: true });
  const cookies = new UserCookies(o.cookieSecret ?? (await cookieSecret(o.dataDir)));
  const files = new StaticFiles(o.rendererDir ?? join(o.root, 'dist/renderer'));
  const clientJs = await loadClientScript(o.root);
  const studios = new Map<string, Studio>();
  const listeners = new Map<string, number>();
  const lastUsed = new Map<string, number>();
  // Anonymous users come and go: close the services of one idle for 30 minutes (its drafts and
  // outbox stay on disk and come back with its cookie).
  const sweep = setInterval(() => {
    const cutoff = Date.now() - (o.idleMs ?? 30 * 60_000);
    for (const [id, s] of studios) {
      if ((listeners.get(id) ?? 0) > 0 || (lastUsed.get(id) ?? 0) > cutoff) continue;
      studios.delete(id);
      lastUsed.delete(id);
      listeners.delete(id);
      void s.close();
    }
  }, Math.min(o.idleMs ?? 5 * 60_000, 5 * 60_000));
  sweep.unref();
  // Browsers cannot change profiles or keys here; this store is never written.
  const noSecrets = new MemorySecretStore();

  function studioFor(userId: string): Studio {
    lastUsed.set(userId, Date.now());
    let s = studios.get(userId);
    if (!s) {
      const userDir = join(o.dataDir, 'users', userId);
      s = createStudio({
        shell: 'web',
        version: o.version,
        dataDir: userDir,
        resourcesDir: join(o.root, 'resources'),
        profiles: new ProfileStore({ dataDir: userDir, secrets: o.localStudio && !o.env ? o.localStudio.secrets : noSecrets, env: o.env, editable: false, local: !o.env }),
        env: o.env,
        localStudio: o.env ? null : o.localStudio,
        userId,
        mediaBase: '/media',
        events: new EventHub(),
      });
      studios.set(userId, s);
    }
    return s;
  }

  function send(res: ServerResponse, status: number, body: string | Buffer, type: string, extra: Record<string, string> = {}) {
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
    res.end(body);
  }
  const sendJson = (res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}) =>
    send(res, status, JSON.stringify(value), 'application/json; charset=utf-8', { 'cache-control': 'no-store', ...extra });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://shell');
    const path = url.pathname;
    const secure = req.headers['x-forwarded-proto'] === 'https';
    let userId = cookies.read(req.headers.cookie);
    const setCookie: Record<string, string> = {};
    if (!userId) {
      const issued = cookies.issue(secure);
      userId = issued.id;
      setCookie['set-cookie'] = issued.header;
    }

    if (path.startsWith('/bridge/') && path !== CLIENT_SCRIPT_PATH && path !== '/bridge/events') {
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: 'bridge calls are POST requests' } }, setCookie);
      // JSON only: a cross-site form cannot send it without a CORS preflight we never grant.
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
        return sendJson(res, 415, { ok: false, error: { code: 'invalid_input', message: 'send the input as application/json' } }, setCookie);
      }
      if (!sameOrigin(req.headers.origin, req.headers.host)) return sendJson(res, 403, { ok: false, error: { code: 'forbidden', message: 'cross-origin bridge calls are refused' } });
      let raw: string;
      try {
        raw = await readBody(req);
      } catch {
        res.setHeader('connection', 'close');
        return sendJson(res, 413, { ok: false, error: { code: 'invalid_input', message: `the request body is larger than ${MAX_BODY} bytes` } }, setCookie);
      }
      let input: unknown;
      try {
        const parsed = raw ? (JSON.parse(raw) as unknown) : {};
        input = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? ((parsed as { input?: unknown }).input ?? undefined) : Symbol('bad');
      } catch {
        return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'the request body is not JSON' } }, setCookie);
      }
      if (typeof input === 'symbol') return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: 'the request body must be {"input": …}' } }, setCookie);
      let method: string;
      try {
        method = decodeURIComponent(path.slice('/bridge/'.length));
      } catch {
        method = '';
      }
      const out = await dispatch(studioFor(userId).handlers, method, input);
      return sendJson(res, 200, out, setCookie);
    }

    if (path === '/bridge/events' && req.method === 'GET') {
      const studio = studioFor(userId);
      res.writeHead(200, { ...SECURITY_HEADERS, ...setCookie, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      res.write(': connected\n\n');
      const un = studio.events.subscribe((e: StudioEvent) => res.write(`data: ${JSON.stringify(e)}\n\n`));
      const beat = setInterval(() => res.write(': heartbeat\n\n'), 15_000);
      listeners.set(userId, (listeners.get(userId) ?? 0) + 1);
      studio.setLive(true);
      const uid = userId;
      req.on('close', () => {
        clearInterval(beat);
        un();
        const n = (listeners.get(uid) ?? 1) - 1;
        listeners.set(uid, n);
        if (n <= 0) studio.setLive(false);
      });
      return;
    }

    if (path === CLIENT_SCRIPT_PATH && req.method === 'GET') return send(res, 200, clientJs, 'text/javascript; charset=utf-8', { 'cache-control': 'no-cache', ...setCookie });

    if (path.startsWith('/media/') && (req.method === 'GET' || req.method === 'HEAD')) {
      const ctl = new AbortController();
      res.on('close', () => ctl.abort());
      const r = await studioFor(userId).openMedia(path.slice('/media/'.length), { range: req.headers.range ?? null, ifNoneMatch: req.headers['if-none-match'] ?? null }, ctl.signal);
      const headers: Record<string, string> = { ...SECURITY_HEADERS, ...setCookie };
      r.headers.forEach((v, k) => (headers[k] = v));
      if (url.searchParams.get('download') === '1' && r.ok) headers['content-disposition'] = 'attachment';
      res.writeHead(r.status, headers);
      if (req.method === 'HEAD' || !r.body) {
        await r.body?.cancel().catch(() => undefined);
        res.end();
        return;
      }
      Readable.fromWeb(r.body as import('node:stream/web').ReadableStream).on('error', () => res.destroy()).pipe(res);
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: 'method not allowed' } }, setCookie);
    let file;
    try {
      file = await files.get(path);
    } catch {
      return send(res, 503, 'The app is not built yet: run `npm run build`.', 'text/plain; charset=utf-8');
    }
    if (!file) return send(res, 404, 'Not found', 'text/plain; charset=utf-8', setCookie);
    return send(res, 200, file.body, file.type, { 'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache', ...setCookie });
  }

  const server = createServer((req, res) => {
    const started = Date.now();
    res.on('finish', () => o.log(`${req.method} ${(req.url ?? '').split('?')[0]} ${res.statusCode} ${Date.now() - started}ms`));
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal_error', message: 'something went wrong in the web shell' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${addr.port}`,
    async close() {
      clearInterval(sweep);
      await Promise.all([...studios.values()].map((s) => s.close()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
