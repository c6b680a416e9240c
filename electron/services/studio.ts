// The privileged side of the bridge: one handler per StudioApi method, wired to profiles,
// secrets, drafts, outbox, caches, job sync and the parts in their own modules: connections
// (the API client per profile), the media router, downloads, uploads and CSV import.
// Plain Node: Electron's main process and the web shell both run it.
import { join } from 'node:path';
import { documentOfJob, documentOfRequest, excerptOf, hasBreaks, OUTPUT_PARAM_KEYS, requestText, toRenderRequest, withoutBreaks, type Job, type RenderRequest } from '../../shared/contract/index.js';
import type { ConnectionTest, StudioHandlers, StudioStatus, UploadStatus } from '../../shared/bridge/index.js';
import type { AssetKind } from '../../shared/contract/index.js';
import type { ClientOptions } from './api-client.js';
import { CatalogCache, readBundledCatalogs, type RawCatalogs } from './catalogs.js';
import { Connections, FOREIGN_CAPABILITIES } from './connections.js';
import { importCsv } from './csv-import.js';
import { Downloads } from './downloads.js';
import { BrandKitStore } from './brand-kits.js';
import { DraftStore } from './drafts.js';
import { BridgeFailure, toBridgeError } from './errors.js';
import { EventHub } from './events.js';
import { downloadFileName } from './file-names.js';
import { JobSync } from './job-sync.js';
import { JobsCache } from './jobs-cache.js';
import { AppSettingsStore } from './app-settings.js';
import type { LocalStudio } from './local-studio.js';
import { reason, type Logger } from './logger.js';
import { MediaRouter } from './media-router.js';
import { importMusicTrack, readMusicTracks } from './music-tracks.js';
import { Outbox } from './outbox.js';
import { ENV_PROFILE_ID, LOCAL_PROFILE_ID, type EnvProfileConfig, type ProfileStore } from './profiles.js';
import { Uploads } from './uploads.js';
import { Readable } from 'node:stream';

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
  /** Failures that do not fail the call (a cache not written, a background send refused). */
  log: Logger;
  events?: EventHub;
  /** Desktop: asks where to save a download (null = canceled). Absent in the web shell. */
  chooseSavePath?: (suggestedName: string) => Promise<string | null>;
  /** Desktop: the OS file dialog for media files of these kinds (none chosen: empty). Absent in the web shell. */
  chooseFiles?: (kinds: AssetKind[] | undefined) => Promise<string[]>;
  /** Where LibreOffice is, for slide decks (default: looked up on this machine). */
  findSoffice?: () => Promise<string | null>;
  clientOptions?: ClientOptions;
  /** How long the live event stream may stay silent before it counts as lost (tests shorten it). */
  eventsIdleMs?: number;
}

const DISABLED: StudioStatus = { state: 'disabled', baseUrl: null, restarts: 0, error: null };

export interface Studio {
  handlers: StudioHandlers;
  events: EventHub;
  /** Streams `<mediaBase>/<rest>`: `rest` is the part after the base. */
  openMedia(rest: string, headers: { range?: string | null; ifNoneMatch?: string | null }, signal?: AbortSignal): Promise<Response>;
  /**
   * Web shell: a file arriving in a request body, streamed on to the active profile's API.
   * Answers at once (progress as `upload` events); `finished` gives the final status.
   */
  upload(name: string, body: Readable, sizeBytes: number | null, uploadId?: string): Promise<UploadStatus>;
  uploadFinished(uploadId: string): Promise<UploadStatus>;
  /** Live job updates on (Electron: always; web shell: while a browser listens). */
  setLive(on: boolean): void;
  close(): Promise<void>;
}

const isOffline = (e: unknown) => e instanceof BridgeFailure && e.code === 'offline';

export function createStudio(deps: StudioDeps): Studio {
  const { log } = deps;
  const events = deps.events ?? new EventHub();
  const drafts = new DraftStore(join(deps.dataDir, 'drafts'));
  const brandKits = new BrandKitStore(deps.dataDir);
  const catalogCache = new CatalogCache(join(deps.dataDir, 'cache', 'catalogs'));
  const jobsCache = new JobsCache(join(deps.dataDir, 'cache', 'jobs'));
  const settings = new AppSettingsStore(deps.dataDir);
  const connections = new Connections(deps);
  const media = new MediaRouter(deps.mediaBase, connections);
  const downloads = new Downloads({ emit: (e) => events.emit(e), log });
  const uploads = new Uploads({
    client: (profileId) => connections.client(profileId),
    emit: (e) => events.emit(e),
    present: (profileId, asset) => media.asset(profileId, asset),
    workDir: join(deps.dataDir, 'tmp', 'uploads'),
    log,
    findSoffice: deps.findSoffice,
  });
  let sync: JobSync | null = null;
  let live = false;
  // Browsers of the web shell need not learn the studio's internal address.
  const shown = (s: StudioStatus): StudioStatus => (deps.shell === 'web' ? { ...s, baseUrl: null } : s);
  const unwatchStudio = deps.localStudio?.onStatusChange((status) => events.emit({ type: 'studio', status: shown(status) }));

  const clientFor = (profileId: string) => connections.client(profileId);
  const activeId = () => connections.activeId();
  /** A background task's failure goes to the log: nobody waits for its answer. */
  const logged = (what: string) => (e: unknown) => log.warn(`${what}: ${reason(e)}`);

  /** The profile's remembered titles, read once; unreadable, jobs show without them. */
  const loadTitles = (profileId: string) => jobsCache.loadTitles(profileId).catch(logged(`job titles of "${profileId}" not read`));

  const present = (profileId: string, job: Job): Job => media.job(profileId, jobsCache.withTitle(profileId, job));

  /**
   * The title, the output settings and the brand go only to APIs with their extension; for the
   * others the client remembers the title, and the video is made at that API's own size and
   * captions, without the brand (the kit panel says so). The lexicon and pause tags (extension
   * `sound`) likewise: another API gets the script without its pauses.
   */
  async function withoutUnsupported(profileId: string, request: RenderRequest): Promise<RenderRequest> {
    const output = OUTPUT_PARAM_KEYS.filter((k) => request.params?.[k] !== undefined);
    const sound = request.lexicon !== undefined || hasBreaks(requestText(request));
    if (request.title === undefined && !output.length && request.brand === undefined && !sound) return request;
    const caps = await connections.capabilitiesOf(profileId).catch((e: unknown) => {
      // Offline: the capabilities are not known; the request is sent as to a foreign API.
      if (!isOffline(e)) logged(`capabilities of "${profileId}" not known`)(e);
      return null;
    });
    let out = request;
    if (!caps?.title && out.title !== undefined) {
      const { title: _title, ...rest } = out;
      out = rest;
    }
    if (!caps?.brand && out.brand !== undefined) {
      const { brand: _brand, ...rest } = out;
      out = rest;
    }
    if (!caps?.output && output.length && out.params) {
      const params = Object.fromEntries(Object.entries(out.params).filter(([k]) => !(output as string[]).includes(k)));
      const { params: _params, ...rest } = out;
      out = Object.keys(params).length ? { ...rest, params } : rest;
    }
    if (!caps?.sound && sound) {
      const { lexicon: _lexicon, ...rest } = out;
      const plain = (t: string) => withoutBreaks(t).replace(/[ \t]{2,}/g, ' ').trim();
      out = { ...rest, ...(rest.text !== undefined ? { text: plain(rest.text) } : {}), ...(rest.scenes ? { scenes: rest.scenes.map((s) => ({ ...s, text: plain(s.text) })) } : {}) };
    }
    return out;
  }
  async function remember(profileId: string, job: Job, request: RenderRequest): Promise<Job> {
    const title = request.title?.trim();
    if (title && !job.title) await jobsCache.rememberTitle(profileId, job.id, title).catch(logged(`title of job ${job.id} not saved`));
    return present(profileId, job);
  }

  const outbox = new Outbox({
    dir: join(deps.dataDir, 'outbox'),
    clientFor,
    prepare: withoutUnsupported,
    log,
    onChange: (items) => events.emit({ type: 'outbox', items }),
    onSent: (profileId, job, request) => void remember(profileId, job, request).then((j) => events.emit({ type: 'job', profileId, job: j })),
  });
  const flushOutbox = () => void outbox.flush().catch(logged('outbox not sent'));
  /** A connection's settings changed: what its API refused may go through now. */
  function changed(profileId: string) {
    connections.forget(profileId);
    void outbox.resend({ profileId }).catch(logged(`outbox of "${profileId}" not resent`));
  }

  async function restartSync() {
    sync?.stop();
    sync = null;
    if (!live) return;
    const profileId = await activeId();
    await loadTitles(profileId);
    sync = new JobSync({
      profileId,
      client: () => clientFor(profileId),
      hasEvents: async () => (await connections.capabilitiesOf(profileId)).events,
      emit: (e) => events.emit(e),
      present: (j) => present(profileId, j),
      onOnline: flushOutbox,
      idleMs: deps.eventsIdleMs,
    });
    sync.start();
  }

  async function submit(given: RenderRequest) {
    const profileId = await activeId();
    // The pronunciation dictionary goes with every job (sent only where the API has `sound`).
    const { pronunciation } = await settings.get();
    const request = given.lexicon === undefined && pronunciation.length ? { ...given, lexicon: pronunciation } : given;
    const r = await outbox.submit(profileId, request);
    return { job: r.job && (await remember(profileId, r.job, request)), queued: r.queued };
  }

  /** The active profile's job, with the title the client remembers for it. */
  async function getJob(id: string): Promise<Job> {
    const profileId = await activeId();
    await loadTitles(profileId);
    return jobsCache.withTitle(profileId, await (await clientFor(profileId)).getJob(id));
  }

  /** The active profile, once its API is known to keep assets. */
  async function assetsProfile(): Promise<string> {
    const profileId = await activeId();
    await connections.require(profileId, 'assets', 'the media library (its health lists no "assets" extension)');
    return profileId;
  }
  const assetsClient = async () => {
    const profileId = await assetsProfile();
    return { profileId, client: await clientFor(profileId) };
  };

  async function catalogs(): Promise<{ raw: RawCatalogs; fromCache: boolean; profileId: string }> {
    const profileId = await activeId();
    try {
      const client = await clientFor(profileId);
      if (!(await connections.capabilitiesOf(profileId)).catalogs) return { raw: await readBundledCatalogs(deps.resourcesDir), fromCache: false, profileId };
      const caps = await connections.capabilitiesOf(profileId);
      const raw = { templates: await client.templates(), voices: await client.voices(), presenters: caps.presenters ? await client.presenters() : [] };
      await catalogCache.write(profileId, raw).catch(logged(`catalogs of "${profileId}" not cached`));
      return { raw, fromCache: false, profileId };
    } catch (e) {
      if (!isOffline(e)) throw e;
      const cached = (await catalogCache.read(profileId)) ?? (await readBundledCatalogs(deps.resourcesDir));
      return { raw: cached, fromCache: true, profileId };
    }
  }

  const handlers: StudioHandlers = {
    'app.info': async () => ({ version: deps.version, shell: deps.shell, platform: process.platform }),
    'profiles.list': () => deps.profiles.state(),
    'profiles.save': async (input) => {
      const p = await deps.profiles.save(input);
      changed(p.id);
      return p;
    },
    'profiles.remove': async ({ id }) => {
      const before = await activeId();
      const st = await deps.profiles.remove(id);
      connections.forget(id);
      if (before !== st.activeId) await restartSync();
      return st;
    },
    'profiles.select': async ({ id }) => {
      const st = await deps.profiles.select(id);
      connections.forgetActive();
      await restartSync();
      return st;
    },
    'profiles.test': async ({ id }): Promise<ConnectionTest> => {
      connections.forget(id);
      try {
        const client = await clientFor(id);
        const h = await client.health();
        const caps = await connections.capabilitiesOf(id);
        await client.listJobs({ limit: 1 }); // proves the key
        return { ok: true, version: h.version, capabilities: caps, error: null };
      } catch (e) {
        return { ok: false, version: null, capabilities: connections.knownCapabilities(id) ?? FOREIGN_CAPABILITIES, error: toBridgeError(e) };
      }
    },
    'key.status': ({ profileId }) => deps.profiles.keyStatus(profileId),
    'key.set': async ({ profileId, key }) => {
      const status = await deps.profiles.setKey(profileId, key);
      changed(profileId);
      return status;
    },
    'key.clear': async ({ profileId }) => {
      const status = await deps.profiles.clearKey(profileId);
      connections.forget(profileId);
      return status;
    },
    'catalogs.get': async () => {
      const { raw, fromCache, profileId } = await catalogs();
      return { ...media.catalog(profileId, raw), fromCache };
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
      await loadTitles(profileId);
      try {
        const list = await (await clientFor(profileId)).listJobs(q);
        // Cached as the API gave them (plus remembered titles); media URLs are rewritten on the way out.
        const jobs = list.jobs.map((j) => jobsCache.withTitle(profileId, j));
        if (!q.status?.length && !q.q && !q.cursor) await jobsCache.write(profileId, jobs).catch(logged(`job list of "${profileId}" not cached`));
        return { ...list, jobs: jobs.map((j) => media.job(profileId, j)), fromCache: false };
      } catch (e) {
        if (!isOffline(e)) throw e;
        const cached = await jobsCache.list(profileId, q);
        if (!cached) throw e;
        return { ...cached, jobs: cached.jobs.map((j) => media.urls.rewriteJob(profileId, j)) };
      }
    },
    'jobs.get': async ({ id }) => media.job(await activeId(), await getJob(id)),
    'jobs.cancel': async ({ id }) => {
      const profileId = await activeId();
      await connections.require(profileId, 'cancel', 'canceling jobs');
      const job = present(profileId, await (await clientFor(profileId)).cancel(id));
      events.emit({ type: 'job', profileId, job });
      return job;
    },
    'jobs.thumbnail': async ({ id, at }) => {
      const profileId = await activeId();
      await connections.require(profileId, 'output', 'choosing the thumbnail (its health lists no "output" extension)');
      const job = present(profileId, await (await clientFor(profileId)).thumbnail(id, at));
      events.emit({ type: 'job', profileId, job });
      return job;
    },
    'jobs.delete': async ({ id }) => {
      const profileId = await activeId();
      await connections.require(profileId, 'delete', 'deleting jobs');
      await (await clientFor(profileId)).remove(id);
      events.emit({ type: 'job-removed', profileId, jobId: id });
      return { ok: true as const };
    },
    'jobs.retry': async ({ id }) => {
      const job = await getJob(id);
      // A foreign API's job may lack them; the request it came from could not have.
      if (!job.templateId || !job.voiceId) throw new BridgeFailure('validation_failed', 'this job names no template or voice to render again with');
      return submit(toRenderRequest(documentOfJob(job, ''), job.title ?? undefined));
    },
    'jobs.duplicate': async ({ id }) => {
      const job = await getJob(id);
      const name = `${job.title?.trim() || excerptOf(job.text, 60, '') || 'Untitled script'} (copy)`;
      return drafts.save(documentOfJob(job, name));
    },
    'jobs.importCsv': async (input) => {
      const cat = await catalogs().catch((e: unknown) => {
        // No catalogs at all (not even bundled ones): rows are imported without the id check.
        logged('catalogs for the CSV check not read')(e);
        return null;
      });
      return importCsv(input, {
        catalog: cat && { templates: cat.raw.templates, voiceIds: new Set(cat.raw.voices.map((v) => v.id)) },
        saveDraft: (r, name) => drafts.save(documentOfRequest(r, name)),
        submit,
      });
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
    'media.url': async ({ jobId, kind }) => ({ url: media.urls.job(await activeId(), jobId, kind) }),
    'voices.sampleUrl': async ({ voiceId }) => ({ url: media.urls.voice(await activeId(), voiceId) }),
    'voices.say': async ({ voiceId, text }) => {
      const profileId = await activeId();
      await connections.require(profileId, 'sound', 'hearing a word of the pronunciation dictionary');
      const path = `/api/voices/${encodeURIComponent(voiceId)}/sample`;
      const res = await (await clientFor(profileId)).fetch('GET', path, { query: { say: text }, timeoutMs: 30_000, headers: { accept: 'audio/wav' } });
      return { wavBase64: Buffer.from(await res.arrayBuffer()).toString('base64') };
    },
    'settings.get': () => settings.get(),
    'settings.save': (patch) => settings.save(patch),
    'voices.pack': async ({ voiceId, install }) => (await clientFor(await activeId())).voicePack(voiceId, install),
    'download.start': async ({ jobId, kind }) => {
      const profileId = await activeId();
      const job = await getJob(jobId);
      const fileName = downloadFileName(job, kind);
      // The web shell has no save dialog: the browser downloads from the media URL itself.
      if (!deps.chooseSavePath) return { downloadId: null, path: null, canceled: false, fileName };
      const path = await deps.chooseSavePath(fileName);
      if (!path) return { downloadId: null, path: null, canceled: true, fileName };
      const upstream = media.upstream({ profileId, kind: 'job', id: jobId, file: kind });
      const downloadId = downloads.start(path, async (signal) =>
        (await clientFor(profileId)).fetch('GET', upstream, { signal, timeoutMs: 30_000, headers: { accept: '*/*' }, streaming: true }),
      );
      return { downloadId, path, canceled: false, fileName };
    },
    'download.cancel': async ({ downloadId }) => {
      downloads.cancel(downloadId);
      return { ok: true as const };
    },
    'studio.status': async () => (deps.localStudio ? shown(deps.localStudio.status()) : DISABLED),
    'assets.list': async (input) => {
      const { profileId, client } = await assetsClient();
      const list = await client.listAssets(input ?? {});
      return { ...list, assets: list.assets.map((a) => media.asset(profileId, a)) };
    },
    'brandKits.list': () => brandKits.list(),
    'brandKits.save': (input) => brandKits.save(input),
    'brandKits.remove': async ({ id }) => {
      await brandKits.remove(id);
      return { ok: true as const };
    },
    'brandKits.export': ({ id }) => brandKits.exportKit(id),
    'brandKits.import': async ({ text }) => {
      const { client } = await assetsClient();
      return brandKits.importKit(text, async ({ assetId, name, kind }) => {
        const byId = await client.getAsset(assetId).catch((e: unknown) => {
          // Not found: the kit came from another render API (or the file was deleted); look by name.
          if (e instanceof BridgeFailure && e.code === 'not_found') return null;
          throw e;
        });
        if (byId?.kind === kind) return byId;
        const { assets } = await client.listAssets({ kind, q: name, limit: 100 });
        return assets.find((a) => a.name === name) ?? null;
      });
    },
    'assets.get': async ({ id }) => {
      const { profileId, client } = await assetsClient();
      return media.asset(profileId, await client.getAsset(id));
    },
    'assets.delete': async ({ id }) => {
      const { client } = await assetsClient();
      await client.deleteAsset(id);
      return { ok: true as const };
    },
    'assets.pick': async (input) => {
      if (!deps.chooseFiles) throw new BridgeFailure('unsupported', 'in the browser, files are chosen with the page\'s own file picker');
      const profileId = await assetsProfile();
      const paths = await deps.chooseFiles(input?.kinds);
      return { uploads: await Promise.all(paths.map((p) => uploads.start(profileId, p, { kind: 'path', path: p }))) };
    },
    'assets.uploadPath': async ({ path }) => {
      // A browser must never name a file of the machine the web shell runs on.
      if (deps.shell !== 'electron') throw new BridgeFailure('unsupported', 'files are uploaded from the browser with studio.upload');
      return uploads.start(await assetsProfile(), path, { kind: 'path', path });
    },
    'assets.cancelUpload': async ({ uploadId }) => {
      uploads.cancel(uploadId);
      return { ok: true as const };
    },
    'assets.uploads': async () => uploads.list(await activeId()),
    'media.assetUrl': async ({ assetId, kind }) => ({ url: media.urls.asset(await activeId(), assetId, kind) }),
    'music.tracks': async () => ({ tracks: await readMusicTracks(deps.resourcesDir) }),
    'music.importTrack': async ({ trackId }) => {
      const { profileId, client } = await assetsClient();
      return media.asset(profileId, await importMusicTrack(deps.resourcesDir, trackId, client, AbortSignal.timeout(120_000)));
    },
    'music.preview': async (input) => {
      const { client } = await assetsClient();
      return { mediaType: 'audio/mpeg' as const, audio: (await client.soundPreview(input)).toString('base64') };
    },
    'presenters.create': async ({ maskPng, ...input }) => {
      const { profileId, client } = await assetsClient();
      if (maskPng !== undefined) {
        const bytes = Buffer.from(maskPng, 'base64');
        const mask = await client.uploadAsset({
          name: `${input.name} (cut-out mask).png`, mediaType: 'image/png', sizeBytes: bytes.length, body: Readable.from([bytes]), signal: AbortSignal.timeout(120_000),
        });
        input = { ...input, maskAssetId: mask.id };
      }
      return media.presenter(profileId, await client.createPresenter(input));
    },
  };

  return {
    handlers,
    events,
    openMedia: (rest, headers, signal) => media.open(rest, headers, signal),
    upload: async (name, body, sizeBytes, uploadId) => uploads.start(await assetsProfile(), name, { kind: 'stream', stream: body, sizeBytes }, uploadId),
    uploadFinished: (uploadId) => uploads.finished(uploadId),
    setLive(on) {
      if (on === live) return;
      live = on;
      void restartSync().catch(logged('live job updates not started'));
      if (on) flushOutbox();
    },
    async close() {
      live = false;
      unwatchStudio?.();
      connections.close();
      sync?.stop();
      outbox.close();
      downloads.close();
      uploads.close();
    },
  };
}

/** The StudioHandlers of a new studio (see createStudio for media, live updates and shutdown). */
export function createStudioHandlers(deps: StudioDeps): StudioHandlers {
  return createStudio(deps).handlers;
}

export { LOCAL_PROFILE_ID, ENV_PROFILE_ID };
