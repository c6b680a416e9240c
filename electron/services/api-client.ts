// The one caller of a render API: adds the key (never logged), times out, retries safe calls
// with backoff, turns HTTP failures into BridgeFailures and reads answers through the normaliser.
import { Asset, AssetList, Health, Presenter, PresenterList, TemplateList, VoiceList, VoicePackStatus, type Job, type JobList, type PresenterCreate, type RenderRequest, type SoundPreviewRequest, type Template, type Voice } from '../../shared/contract/index.js';
import type { BridgeErrorCode, BridgeParsedInput, JobsListInput, KeyHeader } from '../../shared/bridge/index.js';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { BridgeFailure } from './errors.js';
import { normalizeJob, normalizeJobList, readErrorBody } from './normalize.js';

export interface ApiConnection {
  baseUrl: string;
  keyHeader: KeyHeader;
  /** Read at call time so a key change applies at once; null means "no key set". */
  key: () => Promise<string | null>;
  /** Sent as X-User-Id when acting with a service key on someone's behalf. */
  userId?: string | null;
}

export interface ClientOptions {
  /** One attempt's wait (for the headers and, but for streams, the body). */
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  /** A whole call's budget, retries included (never less than one attempt's timeout). */
  deadlineMs?: number;
}

interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | undefined>;
  /** Safe to repeat (GET, or a POST that carries an Idempotency-Key). */
  safe?: boolean;
  retries?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A long body (media, downloads, events): the timeout covers only the wait for headers. */
  streaming?: boolean;
}

const STATUS_CODES: Record<number, BridgeErrorCode> = {
  413: 'payload_too_large', 415: 'unsupported_media_type', 416: 'range_not_satisfiable', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'invalid_transition', 422: 'validation_failed', 429: 'rate_limited',
};
const PASS_THROUGH = new Set([
  'unauthorized', 'forbidden', 'not_found', 'not_ready', 'invalid_transition', 'idempotency_conflict', 'validation_failed', 'rate_limited', 'quota_exceeded',
  'payload_too_large', 'unsupported_media_type', 'asset_in_use',
]);

/** Reads a whole (short) body under the caller's timeout, so a stalled body cannot hang a call. */
async function bufferBody(res: Response): Promise<Response> {
  const buf = res.status === 204 || res.status === 304 ? null : await res.arrayBuffer();
  return new Response(buf, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** A whole call's budget unless the client is told otherwise. */
export const DEFAULT_DEADLINE_MS = 12_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RenderApiClient {
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly deadlineMs: number;
  constructor(
    readonly conn: ApiConnection,
    opts: ClientOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.retries = opts.retries ?? 2;
    this.backoffMs = opts.backoffMs ?? 250;
    this.deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
  }

  /** Headers that authenticate a call; used by media streaming too. */
  async authHeaders(): Promise<Record<string, string>> {
    const key = await this.conn.key();
    if (!key) throw new BridgeFailure('no_key', 'no API key is set for this profile');
    const h: Record<string, string> = this.conn.keyHeader === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
    if (this.conn.userId) h['x-user-id'] = this.conn.userId;
    return h;
  }

  url(path: string, query?: Record<string, string | undefined>): string {
    const u = /^https?:\/\//.test(path) ? new URL(path) : new URL(this.conn.baseUrl.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, v);
    return u.toString();
  }

  /** A raw response (status < 400) with retries and the key; used for JSON and for streams. */
  async fetch(method: string, path: string, opts: RequestOptions = {}, auth = true): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...(auth ? await this.authHeaders() : {}), ...opts.headers };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const attempts = 1 + (opts.retries ?? ((opts.safe ?? method === 'GET') ? this.retries : 0));
    const attemptMs = opts.timeoutMs ?? this.timeoutMs;
    // A server that takes every attempt's full timeout must not hold a call for all of them.
    const deadline = Date.now() + Math.max(this.deadlineMs, attemptMs);
    let last: BridgeFailure | null = null;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) {
        const pause = this.backoffMs * 2 ** (i - 1) * (0.75 + Math.random() / 2);
        if (Date.now() + pause >= deadline) break;
        await sleep(pause);
      }
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new DOMException('timed out', 'TimeoutError')), Math.min(attemptMs, deadline - Date.now()));
      const signals = [timeout.signal];
      if (opts.signal) signals.push(opts.signal);
      let res: Response;
      try {
        res = await fetch(this.url(path, opts.query), { method, headers, body, signal: AbortSignal.any(signals) });
        if (opts.streaming) clearTimeout(timer);
        else res = await bufferBody(res).finally(() => clearTimeout(timer));
      } catch (e) {
        clearTimeout(timer);
        if (opts.signal?.aborted) throw new BridgeFailure('canceled', 'canceled');
        const timedOut = timeout.signal.aborted;
        last = new BridgeFailure('offline', timedOut ? 'the render API did not answer in time' : 'the render API could not be reached');
        continue;
      }
      if (res.status < 400) return res;
      const failure = await this.failureFrom(res);
      // Only "not reachable right now" is worth repeating; 4xx answers are final.
      if (failure.code !== 'offline') throw failure;
      last = failure;
    }
    throw last ?? new BridgeFailure('offline', 'the render API could not be reached');
  }

  /** The BridgeFailure of an HTTP answer of 400 or more (the API's own code and message where it sent them). */
  async failureFrom(res: Response): Promise<BridgeFailure> {
    const text = await res.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    const body = readErrorBody(parsed);
    if (res.status === 502 || res.status === 503 || res.status === 504) return new BridgeFailure('offline', `the render API is unavailable (HTTP ${res.status})`);
    const retryAfter = Number(res.headers.get('retry-after'));
    const code: BridgeErrorCode =
      body.code && PASS_THROUGH.has(body.code) ? (body.code as BridgeErrorCode) : body.code === 'user_required' || body.code === 'invalid_json' || body.code === 'bad_request' ? 'invalid_input' : res.status === 405 ? 'unsupported' : (STATUS_CODES[res.status] ?? 'internal_error');
    const message = body.message ?? (res.status >= 500 ? `the render API failed (HTTP ${res.status})` : `the render API refused the request (HTTP ${res.status})`);
    return new BridgeFailure(code, message, body.details, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  }

  async json(method: string, path: string, opts: RequestOptions = {}, auth = true): Promise<unknown> {
    const res = await this.fetch(method, path, opts, auth);
    if (res.status === 204) return null;
    const text = await res.text();
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      throw new BridgeFailure('unreadable_response', `the render API answered ${method} ${path.split('?')[0]} with something that is not JSON`);
    }
  }

  async health(): Promise<{ ours: boolean; version: string | null; extensions: string[] }> {
    const raw = await this.json('GET', '/api/health', { retries: 0, timeoutMs: 3000 }, false).catch((e: unknown) => {
      if (e instanceof BridgeFailure && e.code !== 'offline') return null; // a foreign API may have no health route
      throw e;
    });
    const h = Health.safeParse(raw);
    return h.success ? { ours: true, version: h.data.version, extensions: h.data.extensions ?? [] } : { ours: false, version: null, extensions: [] };
  }

  async listJobs(input: JobsListInput = {}): Promise<JobList> {
    const raw = await this.json('GET', '/api/jobs', {
      query: { status: input.status?.join(','), q: input.q, limit: input.limit?.toString(), cursor: input.cursor },
    });
    return normalizeJobList(raw);
  }

  async getJob(id: string): Promise<Job> {
    return normalizeJob(await this.json('GET', `/api/jobs/${encodeURIComponent(id)}`));
  }

  async submit(request: RenderRequest, idempotencyKey: string): Promise<Job> {
    const raw = await this.json('POST', '/api/render', { body: request, headers: { 'idempotency-key': idempotencyKey }, safe: true });
    const obj = raw as Record<string, unknown> | null;
    // Some foreign APIs wrap the job ({ job: {...} } or { data: {...} }).
    const inner = obj && typeof obj === 'object' && !('status' in obj) ? (obj.job ?? obj.data ?? obj) : obj;
    return normalizeJob(inner, 'job');
  }

  async cancel(id: string): Promise<Job> {
    return normalizeJob(await this.json('POST', `/api/jobs/${encodeURIComponent(id)}/cancel`));
  }

  /** Extension `output`: the thumbnail made again from the frame at `at` seconds of the finished video. */
  async thumbnail(id: string, at: number): Promise<Job> {
    return normalizeJob(await this.json('POST', `/api/jobs/${encodeURIComponent(id)}/thumbnail`, { body: { at } }));
  }

  async remove(id: string): Promise<void> {
    await this.json('DELETE', `/api/jobs/${encodeURIComponent(id)}`);
  }

  async templates(): Promise<Template[]> {
    const parsed = TemplateList.safeParse(await this.json('GET', '/api/templates'));
    if (!parsed.success) throw new BridgeFailure('unreadable_response', 'the render API answered a template list the app cannot read');
    return parsed.data.templates;
  }

  async presenters(): Promise<Presenter[]> {
    const parsed = PresenterList.safeParse(await this.json('GET', '/api/presenters'));
    if (!parsed.success) throw new BridgeFailure('unreadable_response', 'the render API answered a presenter list the app cannot read');
    return parsed.data.presenters;
  }

  /** A voice pack's download state; `install` starts the download on the studio. */
  async voicePack(voiceId: string, install = false): Promise<VoicePackStatus> {
    const parsed = VoicePackStatus.safeParse(await this.json(install ? 'POST' : 'GET', `/api/voices/${encodeURIComponent(voiceId)}/pack`));
    if (!parsed.success) throw new BridgeFailure('unreadable_response', 'the render API answered a voice pack state the app cannot read');
    return parsed.data;
  }

  /** Extension `sound`: a scene's narration with the music under it, as MP3 bytes. */
  async soundPreview(body: SoundPreviewRequest): Promise<Buffer> {
    const res = await this.fetch('POST', '/api/sound/preview', { body, headers: { accept: 'audio/mpeg' }, timeoutMs: 90_000 });
    if (!(res.headers.get('content-type') ?? '').startsWith('audio/')) throw new BridgeFailure('unreadable_response', 'the render API answered a sound preview with something that is not sound');
    return Buffer.from(await res.arrayBuffer());
  }

  async voices(): Promise<Voice[]> {
    const parsed = VoiceList.safeParse(await this.json('GET', '/api/voices'));
    if (!parsed.success) throw new BridgeFailure('unreadable_response', 'the render API answered a voice list the app cannot read');
    return parsed.data.voices;
  }

  async listAssets(input: AssetsListInput = {}): Promise<AssetList> {
    const raw = await this.json('GET', '/api/assets', { query: { kind: input.kind, q: input.q, limit: input.limit?.toString(), cursor: input.cursor } });
    return readAs(AssetList, raw, 'an asset list');
  }

  async getAsset(id: string): Promise<Asset> {
    return readAs(Asset, await this.json('GET', `/api/assets/${encodeURIComponent(id)}`), 'an asset');
  }

  /** A photo presenter (POST /api/presenters). */
  async createPresenter(input: PresenterCreate): Promise<Presenter> {
    return readAs(Presenter, await this.json('POST', '/api/presenters', { body: input }), 'a presenter');
  }

  async deleteAsset(id: string): Promise<void> {
    await this.json('DELETE', `/api/assets/${encodeURIComponent(id)}`);
  }

  /**
   * Streams a file into the media library. Sent once (an upload is not repeated by itself), with
   * no timeout: a large clip takes as long as the line needs; `signal` cancels at any point.
   * Through node:http rather than fetch: a canceled fetch leaves the connection open while the
   * API has stopped reading, so the API would never learn the upload ended (nor drop its part).
   */
  async uploadAsset(u: { name: string; mediaType: string; sizeBytes: number | null; body: Readable; signal: AbortSignal }): Promise<Asset> {
    const headers: Record<string, string> = { accept: 'application/json', ...(await this.authHeaders()), 'content-type': u.mediaType };
    if (u.sizeBytes !== null) headers['content-length'] = String(u.sizeBytes);
    const target = new URL(this.url('/api/assets', { name: u.name }));
    const offline = (e: NodeJS.ErrnoException) => new BridgeFailure('offline', `the render API could not be reached (${e.code ?? e.message})`);
    let res: Response;
    try {
      res = await this.sendUpload(target, headers, u.signal, u.body);
    } catch (e) {
      if (u.signal.aborted) throw new BridgeFailure('canceled', 'the upload was canceled');
      const err = e as NodeJS.ErrnoException;
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') throw offline(err);
      // The API refuses some uploads from their headers alone (a declared size over a limit, a
      // full library) and closes the connection without reading the body: the bytes still on
      // their way then reset it, and its answer is lost. Asked again with the headers only, it
      // says why; an API that waits for the body instead is left at the timeout, keeping nothing.
      const again = await this.sendUpload(target, headers, AbortSignal.any([u.signal, AbortSignal.timeout(this.timeoutMs)]), null).catch(() => null);
      if (u.signal.aborted) throw new BridgeFailure('canceled', 'the upload was canceled');
      if (!again || again.status < 400) throw offline(err);
      res = again;
    }
    if (res.status >= 400) throw await this.failureFrom(res);
    let raw: unknown;
    try {
      raw = JSON.parse(await res.text());
    } catch {
      throw new BridgeFailure('unreadable_response', 'the render API answered an upload with something that is not JSON');
    }
    return readAs(Asset, raw, 'an asset');
  }

  /** One POST of an upload; `body` null sends the headers alone and waits for the answer. */
  private sendUpload(target: URL, headers: Record<string, string>, signal: AbortSignal, body: Readable | null): Promise<Response> {
    return new Promise<Response>((resolve, reject) => {
      const req = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method: 'POST', headers, signal }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (c: Buffer) => chunks.push(c));
        incoming.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(incoming.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: incoming.statusCode ?? 502, headers: h }));
          // An answer before the last byte (a refusal): the rest is not needed.
          if (body) body.destroy();
          else req.destroy();
        });
        incoming.on('error', reject);
      });
      req.on('error', reject);
      if (!body) return void req.flushHeaders();
      body.on('error', (e) => req.destroy(e));
      body.pipe(req);
    });
  }
}

export type AssetsListInput = NonNullable<BridgeParsedInput<'assets.list'>>;

function readAs<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } }, raw: unknown, what: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new BridgeFailure('unreadable_response', `the render API answered ${what} the app cannot read`);
  return parsed.data;
}
