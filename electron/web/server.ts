// The web shell: serves the built renderer and the bridge over HTTP (POST /bridge/<method>) and
// SSE (GET /bridge/events), uploads through POST /bridge/upload, media through /media/…; every
// browser is its own anonymous user.
// The render API key comes from the server environment (or the local studio it starts) and is
// never sent to a browser.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { StudioEvent } from '../../shared/bridge/index.js';
import type { Job } from '../../shared/contract/index.js';
import { dispatch } from '../services/dispatch.js';
import { toBridgeError } from '../services/errors.js';
import { EventHub } from '../services/events.js';
import type { LocalStudio } from '../services/local-studio.js';
import { ProfileStore, type EnvProfileConfig } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { lineLogger } from '../services/logger.js';
import { createStudio, type Studio } from '../services/studio.js';
import { CLIENT_SCRIPT_PATH, StaticFiles } from './static-files.js';
import { FACE_MESH_CSP, FONTS_PATH_PREFIX, isFaceMeshPath, rendererDirs } from '../services/renderer-files.js';
import { loadClientScript } from './client-script.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { UserCookies } from './user-cookie.js';
import { allowedHostnames, hostAllowed, hostnameOf } from './host-check.js';
import { ShellGuard, type Refusal, type ShellLimits } from './shell-limits.js';
import { UserData } from './user-data.js';
import { parseCsv } from '../services/csv.js';
import { isJson } from '../../shared/media-type.js';
import type { SubmitResult, CsvRowReport } from '../../shared/bridge/index.js';

export interface WebShellOptions {
  port: number;
  host: string;
  /** Root of the app (package.json), for dist/renderer, resources (fonts included) and the client source. */
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
  /** How long the data of an anonymous user who does not come back is kept (default 30 days). */
  anonymousDataMs?: number;
  /** Host names to answer to besides localhost, 127.0.0.1, [::1] and the bound address. */
  allowedHosts?: string[];
  /**
   * Behind a reverse proxy: trust its X-Forwarded-Proto (Secure cookie) and X-Forwarded-For
   * (the client address for per-address limits). Off: both headers are ignored.
   */
  trustProxy?: boolean;
  limits?: Partial<ShellLimits>;
  /** Event stream heartbeat period (15 s; tests shorten it). */
  heartbeatMs?: number;
  /** The clock of idle services and of the age-out (default Date.now; tests move it). */
  now?: () => number;
}

export interface WebShell {
  url: string;
  /** Closes idle users' services and removes old users' data now (also done every few minutes). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY = 6 * 1024 * 1024; // CSV imports carry up to 5 MB of text
/** Where the browser sends a file for the media library (`studio.upload` in web-client). */
export const UPLOAD_PATH = '/bridge/upload';

const retryAfter = (r: Refusal): Record<string, string> => (r.retryAfterSeconds === undefined ? {} : { 'retry-after': String(r.retryAfterSeconds) });
const formatBytes = (n: number) => (n >= 1024 ** 3 ? `${+(n / 1024 ** 3).toFixed(1)} GiB` : n >= 1024 ** 2 ? `${Math.round(n / 1024 ** 2)} MiB` : `${Math.round(n / 1024)} KiB`);

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

const MAKES_JOBS = new Set(['jobs.submit', 'jobs.retry', 'jobs.importCsv']);

/** Bridge methods that create render jobs, and how many a call may create. */
function createsOf(method: string, input: unknown): number {
  if (method === 'jobs.submit' || method === 'jobs.retry') return 1;
  if (method === 'jobs.importCsv' && (input as { mode?: unknown } | undefined)?.mode === 'jobs') {
    const csv = (input as { csv?: unknown }).csv;
    // The rows as the import reads them, however its lines end.
    return typeof csv === 'string' ? Math.max(0, parseCsv(csv).length - 1) : 0;
  }
  return 0;
}

/** The jobs a successful create call made. */
function createdJobs(method: string, value: unknown): Pick<Job, 'id' | 'status'>[] {
  if (method === 'jobs.importCsv') {
    return ((value as { rows?: CsvRowReport[] }).rows ?? []).flatMap((r) => (r.jobId ? [{ id: r.jobId, status: 'queued' as const }] : []));
  }
  const job = (value as SubmitResult | undefined)?.job;
  return job ? [job] : [];
}

/** Jobs in a bridge answer (a job, or a list of them), for the active-job count. */
function jobsIn(value: unknown): Pick<Job, 'id' | 'status'>[] {
  const isJob = (v: unknown): v is Job => typeof v === 'object' && v !== null && typeof (v as Job).id === 'string' && typeof (v as Job).status === 'string';
  if (isJob(value)) return [value];
  const list = (value as { jobs?: unknown } | null | undefined)?.jobs;
  return Array.isArray(list) ? list.filter(isJob) : [];
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
  const hosts = allowedHostnames(o.host, o.allowedHosts);
  const guard = new ShellGuard(o.limits);
  const userData = new UserData(join(o.dataDir, 'users'), guard.limits);
  await userData.load();
  const files = new StaticFiles(rendererDirs(o.root, o.rendererDir));
  const clientJs = await loadClientScript(o.root);
  const studios = new Map<string, Studio>();
  const listeners = new Map<string, number>();
  /** Uploads under way per user: a long one keeps its user's services open however long it takes. */
  const uploading = new Map<string, number>();
  const lastUsed = new Map<string, number>();
  const logFailure = (what: string) => (e: unknown) => o.log(`web shell: ${what}: ${e instanceof Error ? e.message : String(e)}`);
  // Anonymous users come and go: close the services of one idle for 30 minutes (its drafts and
  // outbox stay on disk and come back with its cookie), and remove the data of one who has not
  // come back for 30 days.
  const now = o.now ?? Date.now;
  let ageing: Promise<void> | null = null;
  const sweepNow = (): Promise<void> => {
    const cutoff = now() - (o.idleMs ?? 30 * 60_000);
    const recorded: Promise<void>[] = [];
    for (const [id, s] of studios) {
      const last = lastUsed.get(id) ?? 0;
      if ((listeners.get(id) ?? 0) > 0 || (uploading.get(id) ?? 0) > 0 || last > cutoff) continue;
      studios.delete(id);
      lastUsed.delete(id);
      listeners.delete(id);
      void s.close();
      recorded.push(userData.touch(id, last).catch(logFailure(`last use of user ${id} not recorded`)));
    }
    guard.sweep();
    // One age-out at a time (a sweep during one waits for it), after the last uses just recorded.
    ageing ??= Promise.all(recorded)
      .then(() => userData.ageOut(o.anonymousDataMs ?? 30 * 24 * 60 * 60_000, (id) => studios.has(id), now()))
      .then(() => undefined, logFailure('old users’ data not removed'))
      .finally(() => (ageing = null));
    return ageing;
  };
  const sweep = setInterval(() => void sweepNow(), Math.min(o.idleMs ?? 5 * 60_000, 5 * 60_000));
  sweep.unref();
  // Browsers cannot change profiles or keys here; this store is never written.
  const noSecrets = new MemorySecretStore();
  const studioLog = lineLogger(o.log);

  function studioFor(userId: string): Studio {
    lastUsed.set(userId, now());
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
        log: studioLog,
        events: new EventHub(),
      });
      // Jobs seen finished (or deleted) no longer count against the shell's active cap.
      s.events.subscribe((e: StudioEvent) => {
        if (e.type === 'job') guard.seen(e.job);
        else if (e.type === 'job-removed') guard.jobGone(e.jobId);
      });
      studios.set(userId, s);
      void userData.touch(userId, now()).catch(logFailure(`last use of user ${userId} not recorded`));
    }
    return s;
  }

  function send(res: ServerResponse, status: number, body: string | Buffer, type: string, extra: Record<string, string> = {}) {
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
    res.end(body);
  }
  const sendJson = (res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}) =>
    send(res, status, JSON.stringify(value), 'application/json; charset=utf-8', { 'cache-control': 'no-store', ...extra });

  const refuse = (res: ServerResponse, r: Refusal, extra: Record<string, string> = {}) =>
    sendJson(res, 429, { ok: false, error: { code: r.code, message: r.message, retryAfterSeconds: r.retryAfterSeconds } }, { ...extra, ...retryAfter(r) });

  /** The client's address: the socket's, or the one our proxy appended to X-Forwarded-For. */
  function clientAddress(req: IncomingMessage): string {
    const forwarded = o.trustProxy ? String(req.headers['x-forwarded-for'] ?? '').split(',').pop()?.trim() : '';
    return forwarded || req.socket.remoteAddress || 'unknown';
  }

  /**
   * A file from the browser, streamed through to the render API as it arrives (never held whole):
   * the name in `x-file-name` (a header, so a cross-site form cannot send one without a CORS
   * preflight we never grant), the browser's own upload id in `x-upload-id`. Answers with the
   * upload's final status once the API has answered; progress goes out as `upload` events.
   */
  async function upload(req: IncomingMessage, res: ServerResponse, userId: string, setCookie: Record<string, string>): Promise<void> {
    const answer = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      // A body not read to its end is not worth reading: the connection goes with the answer.
      if (!req.complete) extra.connection = 'close';
      sendJson(res, status, body, { ...setCookie, ...extra });
      if (!req.complete) res.once('finish', () => req.destroy());
    };
    if (req.method !== 'POST') return answer(405, { ok: false, error: { code: 'invalid_input', message: 'uploads are POST requests' } });
    if (!sameOrigin(req.headers.origin, req.headers.host)) return answer(403, { ok: false, error: { code: 'forbidden', message: 'cross-origin uploads are refused' } });
    let name = '';
    try {
      name = decodeURIComponent(String(req.headers['x-file-name'] ?? ''));
    } catch {
      // not URI-encoded: refused below as a missing name
    }
    if (!name) return answer(400, { ok: false, error: { code: 'invalid_input', message: 'the file name goes in x-file-name (URI-encoded)' } });
    const length = Number(req.headers['content-length']);
    if (!Number.isInteger(length) || length < 0) return answer(411, { ok: false, error: { code: 'invalid_input', message: 'an upload must say its length (Content-Length)' } });
    const max = guard.limits.uploadMaxBytes;
    if (length > max) return answer(413, { ok: false, error: { code: 'payload_too_large', message: `"${name.slice(0, 100)}" is over the ${formatBytes(max)} limit of this studio` } });
    const slot = guard.openUpload(userId);
    if ('code' in slot) return answer(429, { ok: false, error: slot }, retryAfter(slot));
    uploading.set(userId, (uploading.get(userId) ?? 0) + 1);
    try {
      const studio = studioFor(userId);
      // The body as it arrives, held to its declared length.
      let seen = 0;
      const body = req.pipe(new Transform({
        transform(chunk: Buffer, _enc, cb) {
          seen += chunk.length;
          cb(seen > length ? new Error('the body is longer than its Content-Length') : null, chunk);
        },
      }));
      req.once('close', () => req.complete || body.destroy(new Error('the browser stopped sending the file')));
      const first = await studio.upload(name, body, length, String(req.headers['x-upload-id'] ?? '') || undefined);
      const final = await studio.uploadFinished(first.uploadId);
      return answer(200, { ok: true, value: final });
    } catch (e) {
      return answer(200, { ok: false, error: toBridgeError(e) });
    } finally {
      slot.release();
      const left = (uploading.get(userId) ?? 1) - 1;
      if (left > 0) uploading.set(userId, left);
      else uploading.delete(userId);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Before anything else: a request for another host name is a DNS-rebinding page (or a mistake).
    if (!hostAllowed(req.headers.host, hosts)) {
      const name = hostnameOf(req.headers.host) ?? '(none)';
      return sendJson(res, 421, { ok: false, error: { code: 'forbidden', message: `this studio does not answer to the host name ${JSON.stringify(name).slice(0, 100)}; add it with --allowed-host` } });
    }
    const url = new URL(req.url ?? '/', 'http://shell');
    const path = url.pathname;
    const secure = o.trustProxy === true && req.headers['x-forwarded-proto'] === 'https';
    let userId = cookies.read(req.headers.cookie);
    const setCookie: Record<string, string> = {};
    // Built files need no user; everything else gets one, within the per-address budget.
    const needsUser = !path.startsWith('/assets/') && !path.startsWith(FONTS_PATH_PREFIX) && path !== CLIENT_SCRIPT_PATH;
    if (!userId && needsUser) {
      const refused = guard.newIdentity(clientAddress(req));
      if (refused) return refuse(res, refused);
      const issued = cookies.issue(secure);
      userId = issued.id;
      setCookie['set-cookie'] = issued.header;
    }

    if (path === UPLOAD_PATH) return upload(req, res, userId!, setCookie);

    if (path.startsWith('/bridge/') && path !== CLIENT_SCRIPT_PATH && path !== '/bridge/events') {
      if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: 'bridge calls are POST requests' } }, setCookie);
      // JSON only: a cross-site form cannot send it without a CORS preflight we never grant.
      if (!isJson(req.headers['content-type'])) {
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
      const creates = createsOf(method, input);
      if (creates) {
        const refused = guard.admitCreates(creates);
        if (refused) return refuse(res, refused, setCookie);
      }
      const newDrafts = userData.draftsMadeBy(userId!, method, input);
      if (newDrafts) {
        const refused = await userData.admitDrafts(userId!, newDrafts);
        if (refused) {
          guard.refundCreates(creates);
          return refuse(res, refused, setCookie);
        }
      }
      const out = await dispatch(studioFor(userId!).handlers, method, input);
      if (newDrafts || method === 'drafts.remove') await userData.recount(userId!).catch(logFailure(`drafts of user ${userId} not counted`));
      const made = out.ok && MAKES_JOBS.has(method) ? createdJobs(method, out.value) : [];
      // Every job made here counts as active, whatever the call was expected to make.
      for (const job of made) guard.created(job);
      if (creates) {
        // A request waiting in the outbox still creates its job later: it keeps its slot.
        const queued = out.ok && method !== 'jobs.importCsv' && made.length === 0 ? 1 : 0;
        guard.refundCreates(creates - made.length - queued);
      }
      if (out.ok) for (const job of jobsIn(out.value)) guard.seen(job); // e.g. a cancel or a list: finished jobs stop counting
      return sendJson(res, 200, out, setCookie);
    }

    if (path === '/bridge/events' && req.method === 'GET') {
      const slot = guard.openStream(userId!);
      if ('code' in slot) return refuse(res, slot, setCookie);
      const studio = studioFor(userId!);
      res.writeHead(200, { ...SECURITY_HEADERS, ...setCookie, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
      res.write(': connected\n\n');
      const un = studio.events.subscribe((e: StudioEvent) => res.write(`data: ${JSON.stringify(e)}\n\n`));
      const beat = setInterval(() => res.write(': heartbeat\n\n'), o.heartbeatMs ?? 15_000);
      listeners.set(userId!, (listeners.get(userId!) ?? 0) + 1);
      studio.setLive(true);
      const uid = userId!;
      req.on('close', () => {
        slot.release();
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
      const r = await studioFor(userId!).openMedia(path.slice('/media/'.length), { range: req.headers.range ?? null, ifNoneMatch: req.headers['if-none-match'] ?? null }, ctl.signal);
      const headers: Record<string, string> = { ...SECURITY_HEADERS, ...setCookie };
      r.headers.forEach((v, k) => (headers[k] = v));
      if (url.searchParams.get('download') === '1' && r.ok) headers['content-disposition'] = 'attachment';
      res.writeHead(r.status, headers);
      if (req.method === 'HEAD' || !r.body) {
        // A body never read: release it. An errored stream rejects its cancel with that error: logged.
        await r.body?.cancel().catch((err: unknown) => o.log(`media body could not be released: ${(err as Error).message}`));
        res.end();
        return;
      }
      Readable.fromWeb(r.body as import('node:stream/web').ReadableStream).on('error', () => res.destroy()).pipe(res);
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: 'method not allowed' } }, setCookie);
    let file;
    try {
      file = await files.get(path, req.headers['if-none-match']);
    } catch {
      return send(res, 503, 'The app is not built yet: run `npm run build`.', 'text/plain; charset=utf-8');
    }
    if (!file) return send(res, 404, 'Not found', 'text/plain; charset=utf-8', setCookie);
    const cache = {
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache', ...(file.etag ? { etag: file.etag } : {}), ...setCookie,
      // The Face Mesh runner: a frame of the app's own pages, with the CSP its WebAssembly glue needs.
      ...(isFaceMeshPath(path) ? { 'content-security-policy': FACE_MESH_CSP, 'x-frame-options': 'SAMEORIGIN' } : {}),
    };
    if (!file.body) {
      res.writeHead(304, { ...SECURITY_HEADERS, ...cache });
      return void res.end();
    }
    return send(res, 200, file.body, file.type, cache);
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
    sweep: sweepNow,
    async close() {
      clearInterval(sweep);
      await Promise.all([...studios.values()].map((s) => s.close()));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
