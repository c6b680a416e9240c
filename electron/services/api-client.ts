// The one caller of a render API: adds the key (never logged), times out, retries safe calls
// with backoff, turns HTTP failures into BridgeFailures and reads answers through the normaliser.
import { Health, TemplateList, VoiceList, VoicePackStatus, type Job, type JobList, type RenderRequest, type Template, type Voice } from '../../shared/contract/index.js';
import type { BridgeErrorCode, JobsListInput, KeyHeader } from '../../shared/bridge/index.js';
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
  416: 'range_not_satisfiable', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'invalid_transition', 422: 'validation_failed', 429: 'rate_limited',
};
const PASS_THROUGH = new Set(['unauthorized', 'forbidden', 'not_found', 'not_ready', 'invalid_transition', 'idempotency_conflict', 'validation_failed', 'rate_limited', 'quota_exceeded']);

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

  private async failureFrom(res: Response): Promise<BridgeFailure> {
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

  async remove(id: string): Promise<void> {
    await this.json('DELETE', `/api/jobs/${encodeURIComponent(id)}`);
  }

  async templates(): Promise<Template[]> {
    const parsed = TemplateList.safeParse(await this.json('GET', '/api/templates'));
    if (!parsed.success) throw new BridgeFailure('unreadable_response', 'the render API answered a template list the app cannot read');
    return parsed.data.templates;
  }

  /** A voice pack's download state; `install` starts the download on the studio. */
  async voicePack(voiceId: string, install = false): Promise<VoicePackStatus> {
    const parsed = VoicePackStatus.safeParse(await this.json(install ? 'POST' : 'GET', `/api/voices/${encodeURIComponent(voiceId)}/pack`));
    if (!parsed.success) throw new BridgeFailure('unreadable_response', 'the render API answered a voice pack state the app cannot read');
    return parsed.data;
  }

  async voices(): Promise<Voice[]> {
    const parsed = VoiceList.safeParse(await this.json('GET', '/api/voices'));
    if (!parsed.success) throw new BridgeFailure('unreadable_response', 'the render API answered a voice list the app cannot read');
    return parsed.data.voices;
  }
}
