// startServer(): the render API with its store, worker queue and engine, as one handle with
// { url, close }. Used by the CLI (`serve`), the desktop app's launcher and the tests.
import { availableParallelism } from 'node:os';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { OUTPUT_DEFAULTS, SHORT_SIDES, type Resolution } from '../shared/contract/index.js';
import { LIMITS } from '../shared/contract/index.js';
import { loadCatalog } from './catalog.js';
import { PresenterRegistry } from './presenters/registry.js';
import { createEngine } from './engine/index.js';
import type { RenderEngine } from './engine/types.js';
import { buildApp } from './http/app.js';
import type { Limits } from './http/context.js';
import { EVENT_STREAM_LIMITS, EventHub } from './http/events.js';
import { ListCache } from './http/list-cache.js';
import { SlidingWindowLimiter } from '../shared/sliding-window.js';
import { Backoff, type BackoffBounds } from './jobs/backoff.js';
import { WorkerQueue } from './jobs/queue.js';
import { openDatabase, SqliteJobStore } from './jobs/sqlite-store.js';
import type { JobStore } from './jobs/store.js';
import type { KeyStore } from './keys/key-store.js';
import { SqliteKeyStore } from './keys/sqlite-key-store.js';
import { LocalOutputStorage } from './storage/local-storage.js';
import { SharedDirOutputStorage } from './storage/shared-dir-storage.js';
import { openPostgres } from './jobs/pg-backend.js';
import { lockDataDir, type DataDirLock } from './data-lock.js';
import { prepareDataDir } from './data-dir.js';
import { Assets, defaultAssetLimits } from './assets/assets.js';
import { PgAssetStore, SqliteAssetStore } from './assets/asset-store.js';
import { DirAssetStorage } from './storage/asset-storage.js';
import { PhotoPresenters } from './presenters/photo-presenters.js';
import { PgPhotoPresenterStore, SqlitePhotoPresenterStore } from './presenters/photo-store.js';
import type { AssetKind } from '../shared/contract/index.js';

export interface ServerOptions {
  /** Holds studio.db (jobs and key hashes), media/, cache/ and work/. */
  dataDir: string;
  /** postgres://… : jobs and keys in PostgreSQL, shared with other API processes and workers (fleet.md). */
  database?: string | null;
  /** Output directory shared with workers (default <dataDir>/media). */
  storageDir?: string;
  /** 0 picks a free port. Default 4510. */
  port?: number;
  host?: string;
  /** Renders at once; the default leaves room on 2 cores (an encode uses both). 0: none (a fleet's workers render). */
  concurrency?: number;
  /** An engine, null for none, or undefined for the project's engine (createEngine). */
  engine?: RenderEngine | null;
  limits?: Partial<Limits>;
  /** Upload limits per kind and the per-user quota, in bytes (ASSET_LIMITS by default). */
  assetLimits?: { maxBytes?: Partial<Record<AssetKind, number>>; quotaBytes?: number };
  /** Cache pages of GET /api/jobs until the user's jobs change (default on; embedded store only). */
  listCache?: boolean;
  /** SSE heartbeat period (15 s by the contract; tests shorten it). */
  heartbeatMs?: number;
  /** Open event streams per user and in total (EVENT_STREAM_LIMITS by default). */
  eventStreams?: Partial<typeof EVENT_STREAM_LIMITS>;
  /** A render's lease, renewed at a third of it; a job whose lease lapsed is recovered (default 30 s; tests shorten it). */
  leaseMs?: number;
  /**
   * Background retries: how often renders with a lapsed lease are looked for (default the lease
   * or 5 s, whichever is shorter), and the pause bounds of a claim or recovery that keeps failing
   * (a full disk; DEFAULT_BACKOFF). Tests shorten them.
   */
  recovery?: { intervalMs?: number; retry?: Partial<BackoffBounds> };
  /** How long SIGTERM waits for running renders before requeueing them. */
  shutdownGraceMs?: number;
  /** Extension `output`: the resolution of a job whose request names none (default 720p). */
  resolution?: Resolution;
  /** pino level: 'info' (default), 'warn', 'silent', … */
  logLevel?: string;
  /** Where structured logs go (default stdout via pino). */
  logStream?: NodeJS.WritableStream;
  /** A folder with templates.json and voices.json instead of the bundled resources (tests add voices). */
  catalogDir?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  keys: KeyStore;
  store: JobStore;
  /** Stops accepting, ends event streams, lets renders finish within the grace period, closes the store. */
  close(): Promise<void>;
}

export const VERSION = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))).version;

export function defaultConcurrency(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/** The key store of a data directory (for the CLI's `keys` commands and for tests). */
export function openKeyStore(dataDir: string): { keys: KeyStore; close(): void } {
  prepareDataDir(dataDir);
  const db = openDatabase(join(dataDir, 'studio.db'));
  return { keys: new SqliteKeyStore(db), close: () => db.close() };
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const dataDir = options.dataDir;
  prepareDataDir(dataDir);
  // Before anything touches the folder: another server's live renders must not be re-queued.
  const lock = lockDataDir(dataDir);
  try {
    return await startLocked(options, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

async function startLocked(options: ServerOptions, lock: DataDirLock): Promise<RunningServer> {
  const dataDir = options.dataDir;
  const workRoot = join(dataDir, 'work');
  rmSync(workRoot, { recursive: true, force: true }); // attempts that died with a previous process
  prepareDataDir(dataDir, ['media', 'cache', 'work']);

  const shared = options.database ? await openPostgres(options.database) : null;
  const db = shared ? null : openDatabase(join(dataDir, 'studio.db'));
  const store = shared?.store ?? new SqliteJobStore(db!);
  const keys = shared?.keys ?? new SqliteKeyStore(db!);
  const mediaDir = options.storageDir ?? join(dataDir, 'media');
  // Shared store: another process may render the same job again, so outputs are first-wins.
  const storage = shared || options.storageDir ? new SharedDirOutputStorage(mediaDir) : new LocalOutputStorage(mediaDir);
  const engine = options.engine === undefined ? await createEngine({ cacheDir: join(dataDir, 'cache'), catalogDir: options.catalogDir }) : options.engine;
  // The creator's files: rows beside the jobs, files beside the outputs (a fleet's shared directory).
  const assets = new Assets(
    shared ? new PgAssetStore(shared.store.pool) : new SqliteAssetStore(db!),
    new DirAssetStorage(mediaDir),
    join(workRoot, 'uploads'),
    defaultAssetLimits(options.assetLimits),
    engine?.forgetMusic ? (path) => engine.forgetMusic!(path) : undefined,
  );
  const photoPresenters = new PhotoPresenters(
    shared ? new PgPhotoPresenterStore(shared.store.pool) : new SqlitePhotoPresenterStore(db!),
    { store: assets.store, files: assets.files },
  );
  const limits: Limits = {
    createsPerMinute: options.limits?.createsPerMinute ?? LIMITS.createsPerMinute,
    activeJobsPerUser: options.limits?.activeJobsPerUser ?? LIMITS.activeJobsPerUser,
    bodyMaxBytes: options.limits?.bodyMaxBytes ?? LIMITS.bodyMaxBytes,
  };
  const hub = new EventHub(store, options.heartbeatMs ?? 15_000, options.eventStreams);
  const limiter = new SlidingWindowLimiter(limits.createsPerMinute);
  const logger = {
    level: options.logLevel ?? 'info',
    ...(options.logStream ? { stream: options.logStream } : {}),
  };
  // Page cache only where this process sees every change (not with a store shared across processes).
  const listCache = shared || options.listCache === false ? null : new ListCache(store);
  const app = buildApp(
    {
      store, keys, storage, catalog: loadCatalog(options.catalogDir), presenters: new PresenterRegistry(photoPresenters), assets, photoPresenters, engine, limits, limiter, hub, listCache, version: VERSION,
      resolution: options.resolution ?? OUTPUT_DEFAULTS.resolution,
    },
    logger,
  );

  // Renders left `rendering` by a process that died go back to the queue (or fail after 3 attempts).
  // At start on the embedded store all of them (no other process renders); from then on, and
  // always with a shared store, those whose lease lapsed: a render whose outcome could not be
  // written (a full disk) stops renewing its lease, and is taken up again once writes succeed.
  const leaseMs = options.leaseMs ?? 30_000;
  const recovery = new Backoff(options.recovery?.retry);
  const recover = async (all: boolean) => {
    const recovered = await store.recoverAbandoned({ all });
    if (recovered.requeued.length || recovered.failed.length) app.log.warn(recovered, 'recovered abandoned renders');
  };
  await recover(!shared);
  let recovering = false; // one sweep at a time: a slow store must not stack them up
  const leases = setInterval(() => {
    if (recovering || !recovery.ready()) return;
    recovering = true;
    recover(false)
      .then(
        () => recovery.succeed(),
        (err: unknown) => {
          const { log, ...retry } = recovery.fail();
          if (log) app.log.error({ err, ...retry }, 'lease recovery failed');
        },
      )
      .finally(() => (recovering = false));
  }, options.recovery?.intervalMs ?? Math.min(5000, leaseMs));
  leases.unref();

  const queue = new WorkerQueue({
    store,
    storage,
    assets: { store: assets.store, files: assets.files },
    photoPresenters,
    engine,
    workRoot,
    concurrency: options.concurrency ?? defaultConcurrency(),
    leaseMs,
    shortSide: SHORT_SIDES[options.resolution ?? OUTPUT_DEFAULTS.resolution],
    log: app.log,
    ...(options.recovery?.retry ? { claimRetry: options.recovery.retry } : {}),
  });

  const maintenance = setInterval(() => {
    limiter.sweep();
    void Promise.resolve(store.pruneIdempotency(LIMITS.idempotencyTtlMs)).catch((err: unknown) => app.log.warn({ err }, 'idempotency keys not pruned (tried again in 10 minutes)'));
  }, 10 * 60_000);
  maintenance.unref();

  await app.listen({ port: options.port ?? 4510, host: options.host ?? '127.0.0.1' });
  queue.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 4510);
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    keys,
    store,
    close: () =>
      (closing ??= (async () => {
        clearInterval(maintenance);
        clearInterval(leases);
        hub.close();
        listCache?.close();
        await app.close();
        await queue.stop(options.shutdownGraceMs ?? 30_000);
        await engine?.close?.();
        await store.close();
        db?.close();
        lock.release();
      })()),
  };
}
