// The privileged side of the bridge: one handler per StudioApi method, wired to profiles,
// secrets, the render-API client, drafts, outbox, caches, job sync, media and downloads.
// Plain Node: Electron's main process and the web shell both run it.
import { join } from 'node:path';
import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Job, RenderRequest } from '../../shared/contract/index.js';
import type { Capabilities, ConnectionTest, MediaKind, StudioHandlers, StudioStatus } from '../../shared/bridge/index.js';
import { RenderApiClient, type ClientOptions } from './api-client.js';
import { CatalogCache, readBundledCatalogs, type RawCatalogs } from './catalogs.js';
import { readCsvRequests } from './csv.js';
import { DraftStore } from './drafts.js';
import { BridgeFailure, toBridgeError } from './errors.js';
import { EventHub } from './events.js';
import { downloadFileName, firstWords } from './file-names.js';
import { JobSync } from './job-sync.js';
import { JobsCache } from './jobs-cache.js';
import type { LocalStudio } from './local-studio.js';
import { MediaUrls, defaultUpstreamPath, mediaError, parseMediaPath, streamMedia } from './media.js';
import { Outbox } from './outbox.js';
import { ENV_PROFILE_ID, LOCAL_PROFILE_ID, type EnvProfileConfig, type ProfileStore } from './profiles.js';

export interface StudioDeps {
  shell: 'electron' | 'web';
  version: string;
  /** This user's folder: drafts, outbox, caches. */
  dataDir: string;
  resourcesDir: string;
  profiles: ProfileStore;
  env: EnvProfileConfig | null;
  localStudio: LocalStudio | null;
  /** X-User-Id sent with the local studio's and the environment profile's service keys. */
  userId: string | null;
  /** `studio-media://app` in Electron, `/media` in the web shell. */
  mediaBase: string;
  events?: EventHub;
  /** Desktop: asks where to save a download (null = canceled). Absent in the web shell. */
  chooseSavePath?: (suggestedName: string) => Promise<string | null>;
  clientOptions?: ClientOptions;
}

const ALL: Capabilities = { cancel: true, delete: true, events: true, catalogs: true, media: true, idempotency: true, title: true };
const FOREIGN: Capabilities = { cancel: false, delete: false, events: false, catalogs: false, media: false, idempotency: false, title: false };
const DISABLED: StudioStatus = { state: 'disabled', baseUrl: null, restarts: 0, error: null };

export interface Studio {
  handlers: StudioHandlers;
  events: EventHub;
  /** Streams `<mediaBase>/<rest>`: `rest` is the part after the base. */
  openMedia(rest: string, headers: { range?: string | null; ifNoneMatch?: string | null }, signal?: AbortSignal): Promise<Response>;
  /** Live job updates on (Electron: always; web shell: while a browser listens). */
  setLive(on: boolean): void;
  close(): Promise<void>;
}

export function createStudio(deps: StudioDeps): Studio {
  const events = deps.events ?? new EventHub();
  const drafts = new DraftStore(join(deps.dataDir, 'drafts'));
  const catalogCache = new CatalogCache(join(deps.dataDir, 'cache', 'catalogs'));
  const jobsCache = new JobsCache(join(deps.dataDir, 'cache', 'jobs'));
  const media = new MediaUrls(deps.mediaBase);
  const capabilities = new Map<string, Capabilities>();
  const knownOutputs = new Map<string, Job['output']>();
  const rawCatalogs = new Map<string, RawCatalogs>();
  const downloads = new Map<string, AbortController>();
  let sync: JobSync | null = null;
  let live = false;
  // Browsers of the web shell need not learn the studio's internal address.
  const shown = (s: StudioStatus): StudioStatus => (deps.shell === 'web' ? { ...s, baseUrl: null } : s);
  const unwatchStudio = deps.localStudio?.onStatusChange((status) => events.emit({ type: 'studio', status: shown(status) }));

  async function clientFor(profileId: string): Promise<RenderApiClient> {
    const p = await deps.profiles.get(profileId);
    if (p.kind === 'env' && deps.env) {
      const env = deps.env;
      return new RenderApiClient({ baseUrl: env.baseUrl, keyHeader: env.keyHeader, key: async () => env.key, userId: deps.userId }, deps.clientOptions);
    }
    if (p.kind === 'local') {
      const studio = deps.localStudio;
      if (!studio) throw new BridgeFailure('offline', 'the local studio is not available here');
      const baseUrl = await studio.ready().catch((e: Error) => {
        throw new BridgeFailure('offline', `the local studio is not running: ${e.message}`);
      });
      return new RenderApiClient({ baseUrl, keyHeader: 'bearer', key: () => studio.key(), userId: deps.userId }, deps.clientOptions);
    }
    const c = await deps.profiles.remoteConnection(profileId);
    return new RenderApiClient({ baseUrl: c.baseUrl, keyHeader: c.keyHeader, key: async () => (await deps.profiles.remoteConnection(profileId)).key }, deps.clientOptions);
  }

  async function capsFor(profileId: string, client?: RenderApiClient): Promise<Capabilities> {
    const known = capabilities.get(profileId);
    if (known) return known;
    const p = await deps.profiles.get(profileId);
    if (p.kind === 'local') return ALL;
    const h = await (client ?? (await clientFor(profileId))).health();
    const caps = h.ours ? { ...ALL, title: h.extensions.includes('title') } : FOREIGN;
    capabilities.set(profileId, caps);
    return caps;
  }

  async function requireCap(profileId: string, cap: keyof Capabilities, what: string) {
    if (!(await capsFor(profileId))[cap]) throw new BridgeFailure('unsupported', `this render API does not support ${what}`);
  }

  const activeId = async () => (await deps.profiles.state()).activeId;

  function present(profileId: string, given: Job): Job {
    const job = jobsCache.withTitle(profileId, given);
    if (job.output) {
      knownOutputs.set(`${profileId}/${job.id}`, job.output);
      if (knownOutputs.size > 5000) knownOutputs.delete(knownOutputs.keys().next().value!);
    }
    return media.rewriteJob(profileId, job);
  }

  /** The title goes only to APIs with the extension; for the others the client remembers it. */
  async function withoutUnsupported(profileId: string, request: RenderRequest): Promise<RenderRequest> {
    if (request.title === undefined || (await capsFor(profileId).catch(() => null))?.title) return request;
    const { title: _title, ...rest } = request;
    return rest;
  }
  async function remember(profileId: string, job: Job, request: RenderRequest): Promise<Job> {
    const title = request.title?.trim();
    if (title && !job.title) await jobsCache.rememberTitle(profileId, job.id, title).catch(() => undefined);
    return present(profileId, job);
  }

  const outbox = new Outbox({
    dir: join(deps.dataDir, 'outbox'),
    clientFor,
    prepare: withoutUnsupported,
    onChange: (items) => events.emit({ type: 'outbox', items }),
    onSent: (profileId, job, request) => void remember(profileId, job, request).then((j) => events.emit({ type: 'job', profileId, job: j })),
  });
  /** A connection's settings changed: what its API refused may go through now. */
  const resendRefused = (profileId: string) => void outbox.resend({ profileId }).catch(() => undefined);

  async function restartSync() {
    sync?.stop();
    sync = null;
    if (!live) return;
    const profileId = await activeId();
    await jobsCache.loadTitles(profileId).catch(() => undefined);
    sync = new JobSync({
      profileId,
      client: () => clientFor(profileId),
      hasEvents: async () => (await capsFor(profileId)).events,
      emit: (e) => events.emit(e),
      present: (j) => present(profileId, j),
      onOnline: () => void outbox.flush().catch(() => undefined),
    });
    sync.start();
  }

  async function submit(request: RenderRequest) {
    const profileId = await activeId();
    const r = await outbox.submit(profileId, request);
    return { job: r.job && (await remember(profileId, r.job, request)), queued: r.queued };
  }

  async function catalogs(): Promise<{ raw: RawCatalogs; fromCache: boolean; profileId: string }> {
    const profileId = await activeId();
    try {
      const client = await clientFor(profileId);
      if (!(await capsFor(profileId, client)).catalogs) return { raw: await readBundledCatalogs(deps.resourcesDir), fromCache: false, profileId };
      const raw = { templates: await client.templates(), voices: await client.voices() };
      await catalogCache.write(profileId, raw).catch(() => undefined);
      return { raw, fromCache: false, profileId };
    } catch (e) {
      if (!(e instanceof BridgeFailure) || e.code !== 'offline') throw e;
      const cached = (await catalogCache.read(profileId)) ?? (await readBundledCatalogs(deps.resourcesDir));
      return { raw: cached, fromCache: true, profileId };
    }
  }

  async function startDownload(profileId: string, jobId: string, kind: MediaKind, path: string, id: string, ctl: AbortController) {
    const part = `${path}.part`;
    let received = 0;
    let total: number | null = null;
    let lastEmit = 0;
    const progress = (done: boolean, error: ReturnType<typeof toBridgeError> | null = null) =>
      events.emit({ type: 'download', downloadId: id, receivedBytes: received, totalBytes: total, done, error });
    try {
      const client = await clientFor(profileId);
      const res = await client.fetch('GET', upstreamFor({ profileId, kind: 'job', id: jobId, file: kind }), { signal: ctl.signal, timeoutMs: 30_000, headers: { accept: '*/*' }, streaming: true });
      total = Number(res.headers.get('content-length')) || null;
      if (!res.body) throw new BridgeFailure('unreadable_response', 'the render API sent no file');
      const counted = Readable.fromWeb(res.body as import('node:stream/web').ReadableStream).on('data', (c: Buffer) => {
        received += c.length;
        const now = Date.now();
        if (now - lastEmit > 200) {
          lastEmit = now;
          progress(false);
        }
      });
      await pipeline(counted, createWriteStream(part), { signal: ctl.signal });
      await rename(part, path);
      progress(true);
    } catch (e) {
      await unlink(part).catch(() => undefined);
      progress(true, ctl.signal.aborted ? { code: 'canceled', message: 'the download was canceled' } : toBridgeError(e));
    } finally {
      downloads.delete(id);
    }
  }

  function upstreamFor(t: ReturnType<typeof parseMediaPath> & object): string {
    if (t.kind === 'job') {
      const out = knownOutputs.get(`${t.profileId}/${t.id}`);
      const u = out && (t.file === 'video' ? out.videoUrl : t.file === 'captions' ? out.captionsUrl : out.thumbnailUrl);
      if (u) return u;
    }
    if (t.kind !== 'job') {
      const c = rawCatalogs.get(t.profileId);
      const u = t.kind === 'voice' ? c?.voices.find((v) => v.id === t.id)?.sampleUrl : c?.templates.find((x) => x.id === t.id)?.thumbnailUrl;
      if (u) return u;
    }
    return defaultUpstreamPath(t);
  }

  const handlers: StudioHandlers = {
    'app.info': async () => ({ version: deps.version, shell: deps.shell, platform: process.platform }),
    'profiles.list': () => deps.profiles.state(),
    'profiles.save': async (input) => {
      const p = await deps.profiles.save(input);
      capabilities.delete(p.id);
      resendRefused(p.id);
      return p;
    },
    'profiles.remove': async ({ id }) => {
      const before = await activeId();
      const st = await deps.profiles.remove(id);
      capabilities.delete(id);
      if (before !== st.activeId) await restartSync();
      return st;
    },
    'profiles.select': async ({ id }) => {
      const st = await deps.profiles.select(id);
      await restartSync();
      return st;
    },
    'profiles.test': async ({ id }): Promise<ConnectionTest> => {
      capabilities.delete(id);
      try {
        const client = await clientFor(id);
        const h = await client.health();
        const caps = await capsFor(id, client);
        await client.listJobs({ limit: 1 }); // proves the key
        return { ok: true, version: h.version, capabilities: caps, error: null };
      } catch (e) {
        return { ok: false, version: null, capabilities: capabilities.get(id) ?? FOREIGN, error: toBridgeError(e) };
      }
    },
    'key.status': ({ profileId }) => deps.profiles.keyStatus(profileId),
    'key.set': async ({ profileId, key }) => {
      capabilities.delete(profileId);
      const status = await deps.profiles.setKey(profileId, key);
      resendRefused(profileId);
      return status;
    },
    'key.clear': ({ profileId }) => deps.profiles.clearKey(profileId),
    'catalogs.get': async () => {
      const { raw, fromCache, profileId } = await catalogs();
      rawCatalogs.set(profileId, raw);
      return {
        templates: raw.templates.map((t) => media.rewriteTemplate(profileId, t)),
        voices: raw.voices.map((v) => media.rewriteVoice(profileId, v)),
        fromCache,
      };
    },
    'drafts.list': async (input) => drafts.list(input?.q),
    'drafts.get': ({ id }) => drafts.get(id),
    'drafts.save': (input) => drafts.save(input),
    'drafts.remove': async ({ id }) => {
      await drafts.remove(id);
      return { ok: true as const };
    },
    'jobs.submit': ({ request }) => submit(request),
    'jobs.list': async (input) => {
      const profileId = await activeId();
      const q = input ?? {};
      await jobsCache.loadTitles(profileId).catch(() => undefined);
      try {
        const list = await (await clientFor(profileId)).listJobs(q);
        // Cached as the API gave them (plus remembered titles); media URLs are rewritten on the way out.
        const jobs = list.jobs.map((j) => jobsCache.withTitle(profileId, j));
        if (!q.status?.length && !q.q && !q.cursor) await jobsCache.write(profileId, jobs).catch(() => undefined);
        return { ...list, jobs: jobs.map((j) => present(profileId, j)), fromCache: false };
      } catch (e) {
        if (!(e instanceof BridgeFailure) || e.code !== 'offline') throw e;
        const cached = await jobsCache.list(profileId, q);
        if (!cached) throw e;
        return { ...cached, jobs: cached.jobs.map((j) => media.rewriteJob(profileId, j)) };
      }
    },
    'jobs.get': async ({ id }) => {
      const profileId = await activeId();
      await jobsCache.loadTitles(profileId).catch(() => undefined);
      return present(profileId, await (await clientFor(profileId)).getJob(id));
    },
    'jobs.cancel': async ({ id }) => {
      const profileId = await activeId();
      await requireCap(profileId, 'cancel', 'canceling jobs');
      const job = present(profileId, await (await clientFor(profileId)).cancel(id));
      events.emit({ type: 'job', profileId, job });
      return job;
    },
    'jobs.delete': async ({ id }) => {
      const profileId = await activeId();
      await requireCap(profileId, 'delete', 'deleting jobs');
      await (await clientFor(profileId)).remove(id);
      events.emit({ type: 'job-removed', profileId, jobId: id });
      return { ok: true as const };
    },
    'jobs.retry': async ({ id }) => {
      const profileId = await activeId();
      await jobsCache.loadTitles(profileId).catch(() => undefined);
      const job = jobsCache.withTitle(profileId, await (await clientFor(profileId)).getJob(id));
      return submit({ text: job.text, ...(job.title ? { title: job.title } : {}), templateId: job.templateId, voiceId: job.voiceId, params: job.params });
    },
    'jobs.duplicate': async ({ id }) => {
      const profileId = await activeId();
      await jobsCache.loadTitles(profileId).catch(() => undefined);
      const job = jobsCache.withTitle(profileId, await (await clientFor(profileId)).getJob(id));
      const name = `${job.title?.trim() || firstWords(job.text, 60) || 'Untitled script'} (copy)`;
      return drafts.save({ name, text: job.text, templateId: job.templateId || null, voiceId: job.voiceId || null, params: job.params });
    },
    'jobs.importCsv': async ({ csv, mode }) => {
      const cat = await catalogs().catch(() => null);
      const rows = readCsvRequests(csv, cat ? { templateIds: new Set(cat.raw.templates.map((t) => t.id)), voiceIds: new Set(cat.raw.voices.map((v) => v.id)) } : undefined);
      const out = [];
      for (const r of rows) {
        if (!r.request) {
          out.push({ row: r.row, ok: false, draftId: null, jobId: null, errors: r.errors });
          continue;
        }
        try {
          if (mode === 'drafts') {
            const d = await drafts.save({ name: r.request.text.replace(/\s+/g, ' ').trim().slice(0, 60), text: r.request.text, templateId: r.request.templateId, voiceId: r.request.voiceId, params: r.request.params ?? {} });
            out.push({ row: r.row, ok: true, draftId: d.id, jobId: null, errors: [] });
          } else {
            const s = await submit(r.request);
            out.push({ row: r.row, ok: true, draftId: null, jobId: s.job?.id ?? null, errors: [] });
          }
        } catch (e) {
          const err = toBridgeError(e);
          out.push({ row: r.row, ok: false, draftId: null, jobId: null, errors: err.details ?? [{ path: '(row)', message: err.message }] });
        }
      }
      return { rows: out };
    },
    'outbox.list': () => outbox.list(),
    'outbox.remove': async ({ id }) => {
      await outbox.remove(id);
      return { ok: true as const };
    },
    'outbox.resend': async ({ id }) => {
      await outbox.resend({ id });
      return { ok: true as const };
    },
    'media.url': async ({ jobId, kind }) => ({ url: media.job(await activeId(), jobId, kind) }),
    'voices.sampleUrl': async ({ voiceId }) => ({ url: media.voice(await activeId(), voiceId) }),
    'voices.pack': async ({ voiceId, install }) => (await clientFor(await activeId())).voicePack(voiceId, install),
    'download.start': async ({ jobId, kind }) => {
      const profileId = await activeId();
      await jobsCache.loadTitles(profileId).catch(() => undefined);
      const job = jobsCache.withTitle(profileId, await (await clientFor(profileId)).getJob(jobId));
      const fileName = downloadFileName(job, kind);
      // The web shell has no save dialog: the browser downloads from the media URL itself.
      if (!deps.chooseSavePath) return { downloadId: null, path: null, canceled: false, fileName };
      const path = await deps.chooseSavePath(fileName);
      if (!path) return { downloadId: null, path: null, canceled: true, fileName };
      const id = randomUUID();
      const ctl = new AbortController();
      downloads.set(id, ctl);
      void startDownload(profileId, jobId, kind, path, id, ctl);
      return { downloadId: id, path, canceled: false, fileName };
    },
    'download.cancel': async ({ downloadId }) => {
      const ctl = downloads.get(downloadId);
      if (!ctl) throw new BridgeFailure('not_found', `no running download "${downloadId}"`);
      ctl.abort();
      return { ok: true as const };
    },
    'studio.status': async () => (deps.localStudio ? shown(deps.localStudio.status()) : DISABLED),
  };

  return {
    handlers,
    events,
    async openMedia(rest, headers, signal) {
      const t = parseMediaPath(rest);
      if (!t) return mediaError(404, 'not_found', 'no such media');
      try {
        const client = await clientFor(t.profileId);
        return await streamMedia(client, upstreamFor(t), headers, signal);
      } catch (e) {
        const err = toBridgeError(e);
        return mediaError(err.code === 'not_found' ? 404 : 503, err.code, err.message);
      }
    },
    setLive(on) {
      if (on === live) return;
      live = on;
      void restartSync().catch(() => undefined);
      if (on) void outbox.flush().catch(() => undefined);
    },
    async close() {
      live = false;
      unwatchStudio?.();
      sync?.stop();
      outbox.close();
      for (const c of downloads.values()) c.abort();
    },
  };
}

/** The StudioHandlers of a new studio (see createStudio for media, live updates and shutdown). */
export function createStudioHandlers(deps: StudioDeps): StudioHandlers {
  return createStudio(deps).handlers;
}

export { LOCAL_PROFILE_ID, ENV_PROFILE_ID };
