// A render worker as its own process (`npm run server -- worker --database … --storage DIR`):
// the same worker queue as the API process, on the shared PostgreSQL store, publishing to a
// shared output directory. Any number of workers on any machines: each claims with SKIP
// LOCKED, renews its lease while rendering, and every worker also puts back jobs whose lease
// lapsed (their worker died). Cancels made through any API process reach it by NOTIFY (and,
// should a notification be lost, by the refused lease renewal).
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OUTPUT_DEFAULTS, SHORT_SIDES, type Resolution } from '../shared/contract/index.js';
import { createEngine } from './engine/index.js';
import type { RenderEngine } from './engine/types.js';
import { openPostgres } from './jobs/pg-backend.js';
import { WorkerQueue } from './jobs/queue.js';
import type { QueueLog } from './jobs/queue.js';
import { SharedDirOutputStorage } from './storage/shared-dir-storage.js';
import { PgAssetStore } from './assets/asset-store.js';
import { PhotoPresenters } from './presenters/photo-presenters.js';
import { PgPhotoPresenterStore } from './presenters/photo-store.js';
import { DirAssetStorage } from './storage/asset-storage.js';

export interface WorkerOptions {
  /** postgres://… shared with the API processes. */
  database: string;
  /** The output directory every API process serves from. */
  storageDir: string;
  /** Renders at once (default 1). */
  concurrency?: number;
  /** An engine, or undefined for the project's engine. */
  engine?: RenderEngine | null;
  /** Engine caches and per-attempt work directories (default a directory under the OS temp dir). */
  workDir?: string;
  /** Render lease, renewed at a third of it (default 30 s). A dead worker's jobs return after it lapses. */
  leaseMs?: number;
  /** The resolution of a job stored before jobs carried their own (default 720p). */
  resolution?: Resolution;
  /** How long a stop waits for running renders before putting them back in the queue. */
  shutdownGraceMs?: number;
  log?: QueueLog;
}

export interface RunningWorker {
  workerId: string;
  /** Stops claiming, finishes or requeues running renders, disconnects. */
  close(): Promise<void>;
}

/** JSON lines on stdout, like the API process's logs. */
export function jsonLog(stream: NodeJS.WritableStream = process.stdout): QueueLog {
  const line = (level: number) => (obj: object, msg: string) => {
    const fields = Object.fromEntries(
      Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? { type: v.name, message: v.message } : v]),
    );
    stream.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...fields, msg })}\n`);
  };
  return { info: line(30), warn: line(40), error: line(50) };
}

export async function startWorker(o: WorkerOptions): Promise<RunningWorker> {
  const log = o.log ?? jsonLog();
  const leaseMs = o.leaseMs ?? 30_000;
  const root = o.workDir ?? join(tmpdir(), `presenter-studio-worker-${process.pid}`);
  const workRoot = join(root, 'work');
  rmSync(workRoot, { recursive: true, force: true });
  mkdirSync(workRoot, { recursive: true });
  mkdirSync(o.storageDir, { recursive: true });
  // A worker needs few connections (claim, lease, progress, outcome, recovery): leave room for many workers.
  const backend = await openPostgres(o.database, { poolSize: 4, onError: (err) => log.warn({ err }, 'database connection problem') });
  let engine: RenderEngine | null;
  try {
    engine = o.engine === undefined ? await createEngine({ cacheDir: join(root, 'cache') }) : o.engine;
  } catch (err) {
    await backend.close();
    throw err;
  }
  const queue = new WorkerQueue({
    store: backend.store,
    storage: new SharedDirOutputStorage(o.storageDir),
    // Scene backgrounds: rows in the shared database, files on the shared mount (whichever node received them).
    assets: { store: new PgAssetStore(backend.store.pool), files: new DirAssetStorage(o.storageDir) },
    photoPresenters: new PhotoPresenters(new PgPhotoPresenterStore(backend.store.pool), {
      store: new PgAssetStore(backend.store.pool), files: new DirAssetStorage(o.storageDir),
    }),
    engine,
    workRoot,
    concurrency: o.concurrency ?? 1,
    shortSide: SHORT_SIDES[o.resolution ?? OUTPUT_DEFAULTS.resolution],
    log,
    leaseMs,
  });

  const recover = async () => {
    const r = await backend.store.recoverAbandoned({ all: false });
    if (r.requeued.length || r.failed.length) log.warn(r, 'recovered renders of lost workers');
  };
  const recovery = setInterval(
    () => void recover().catch((err: unknown) => log.error({ err }, 'lease recovery failed')),
    Math.max(250, Math.floor(leaseMs / 2)),
  );
  recovery.unref();
  await recover();
  queue.start();
  log.info({ workerId: queue.workerId, concurrency: o.concurrency ?? 1, leaseMs }, 'worker ready');

  let closing: Promise<void> | null = null;
  return {
    workerId: queue.workerId,
    close: () =>
      (closing ??= (async () => {
        clearInterval(recovery);
        await queue.stop(o.shutdownGraceMs ?? 30_000);
        await engine?.close?.();
        await backend.close();
        rmSync(workRoot, { recursive: true, force: true });
      })()),
  };
}
