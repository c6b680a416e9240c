// The worker queue inside the server: claims queued jobs from the store, hands them to the
// render engine in a fresh work directory per attempt, keeps progress monotonic, publishes the
// finished files to storage and records the outcome. Without an engine every job fails with
// `engine_unavailable`: a job never completes without a real video.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTerminal, PHOTO_PRESENTER_ID_PATTERN as PHOTO_PRESENTER } from '../../shared/contract/index.js';
import { SHORT_SIDES, type JobOutput, type ShortSide } from '../../shared/contract/index.js';
import { EngineError } from '../engine/types.js';
import type { PhotoPresenterSpec, RenderEngine } from '../engine/types.js';
import type { OutputStorage } from '../storage/output-storage.js';
import { resolveBrandMedia, resolveMusicMedia, resolveSceneMedia, type AssetAccess } from '../assets/scene-media.js';
import type { JobStore, StoredJob } from './store.js';
import { Backoff, type BackoffBounds } from './backoff.js';
import { voicePackFailure } from '../voice-pack-errors.js';

export interface QueueLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** How the queue finds a job's photo presenters (server/presenters/photo-presenters.ts). */
export interface PhotoPresenterAccess {
  spec(id: string, userId: string): Promise<PhotoPresenterSpec | null>;
}

/** The photo presenters a job speaks with, resolved for its owner; one that is gone fails the job. */
async function resolvePhotoPresenters(job: StoredJob, access: PhotoPresenterAccess | null): Promise<Record<string, PhotoPresenterSpec> | undefined> {
  const ids = new Set([job.presenterId, ...(job.scenes ?? []).map((s) => s.presenterId)].filter((id): id is string => !!id && PHOTO_PRESENTER.test(id)));
  if (!ids.size) return undefined;
  const out: Record<string, PhotoPresenterSpec> = {};
  for (const id of ids) {
    const spec = access ? await access.spec(id, job.userId) : null;
    if (!spec) throw new EngineError('invalid_input', `the photo presenter ${id} was deleted, or its photo is gone; choose another presenter and render again`);
    out[id] = spec;
  }
  return out;
}

export interface QueueOptions {
  store: JobStore;
  storage: OutputStorage;
  /** Where a scene job's backgrounds are read (null: scene jobs with backgrounds fail as invalid input). */
  assets?: AssetAccess | null;
  /** Where photo presenters (`pht_` ids) are read (null: jobs that name one fail as invalid input). */
  photoPresenters?: PhotoPresenterAccess | null;
  engine: RenderEngine | null;
  /** Parent of the per-attempt work directories. */
  workRoot: string;
  concurrency: number;
  shortSide: ShortSide;
  log: QueueLog;
  /** Lease held while rendering, renewed at a third of it. */
  leaseMs?: number;
  /** How often to look for queued jobs besides the store's change events. */
  pollMs?: number;
  /** Minimum time between two progress writes of one job. */
  progressIntervalMs?: number;
  /** Pause bounds of a claim that keeps failing (a full disk); DEFAULT_BACKOFF by default. */
  claimRetry?: Partial<BackoffBounds>;
}

type AbortReason = 'canceled' | 'shutdown';

interface Running {
  job: StoredJob;
  controller: AbortController;
  reason: AbortReason | null;
  done: Promise<void>;
}

export class WorkerQueue {
  readonly workerId = `worker_${process.pid}_${randomBytes(4).toString('hex')}`;
  private readonly running = new Map<string, Running>();
  private readonly leaseMs: number;
  private stopping = false;
  private pumping = false;
  private pumpAgain = false;
  private poll: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  /** A claim that fails (a full disk) is tried again within a bounded pause, and logged ever more rarely. */
  private readonly claims: Backoff;

  constructor(private readonly o: QueueOptions) {
    this.leaseMs = o.leaseMs ?? 30_000;
    this.claims = new Backoff(o.claimRetry);
  }

  start(): void {
    this.unsubscribe = this.o.store.subscribe(({ job, kind }) => {
      const mine = this.running.get(job.id);
      if (mine && this.lost(mine.job, job, kind === 'deleted')) this.abort(mine, 'canceled');
      if (kind === 'created' || job.status === 'queued') this.pump();
    });
    this.poll = setInterval(() => this.pump(), this.o.pollMs ?? 1000);
    this.poll.unref();
    this.pump();
  }

  /**
   * Whether a change means our render of `claimed` is no longer wanted. A shared store relays
   * other processes' changes a moment late, so a change from before our claim (the job's
   * `created`, an earlier attempt) can arrive after it: only a terminal status, a delete, or a
   * change at our attempt or later that is not ours counts.
   */
  private lost(claimed: StoredJob, now: StoredJob, deleted: boolean): boolean {
    if (deleted || isTerminal(now.status)) return true;
    if (now.status === 'rendering' && now.workerId === this.workerId) return false;
    return now.attempts >= claimed.attempts;
  }

  get active(): number {
    return this.running.size;
  }

  /**
   * Stops claiming, lets running renders finish within `graceMs`, then aborts the rest and
   * puts them back in the queue (a shutdown does not use up an attempt).
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.poll) clearInterval(this.poll);
    const all = () => Promise.allSettled([...this.running.values()].map((r) => r.done));
    if (this.running.size > 0) {
      this.o.log.info({ running: this.running.size, graceMs }, 'waiting for running renders');
      await Promise.race([all(), sleep(graceMs)]);
    }
    for (const r of this.running.values()) this.abort(r, 'shutdown');
    await Promise.race([all(), sleep(5000)]);
    // Renders that ignored the abort: requeue them anyway, their late results are refused.
    for (const r of this.running.values()) await this.requeue(r.job);
    this.unsubscribe?.();
  }

  private abort(r: Running, reason: AbortReason): void {
    if (r.reason) return;
    r.reason = reason;
    r.controller.abort(new Error(reason));
  }

  /** Fills free slots with queued jobs; re-entrant calls coalesce. */
  pump(): void {
    if (this.stopping || !this.claims.ready()) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.pumpAgain = false;
          while (!this.stopping && this.running.size < this.o.concurrency) {
            const job = await this.o.store.claimNext(this.workerId, this.leaseMs);
            if (!job) break;
            this.launch(job);
          }
        } while (this.pumpAgain && !this.stopping);
        this.claims.succeed();
      } catch (err) {
        const { log, ...retry } = this.claims.fail();
        if (log) this.o.log.error({ err, ...retry }, 'claiming a job failed');
      } finally {
        this.pumping = false;
      }
    })();
  }

  private launch(job: StoredJob): void {
    const r: Running = { job, controller: new AbortController(), reason: null, done: Promise.resolve() };
    this.running.set(job.id, r);
    r.done = this.render(r)
      .catch((err) => this.o.log.error({ err, jobId: job.id }, 'render bookkeeping failed'))
      .finally(() => {
        this.running.delete(job.id);
        this.pump();
      });
  }

  private async render(r: Running): Promise<void> {
    const { job } = r;
    const { store, engine, log } = this.o;
    if (!engine) {
      await store.transition(
        job.id,
        null,
        { to: 'failed', error: { code: 'engine_unavailable', message: 'no render engine is available on this server' } },
        this.workerId,
      );
      log.warn({ jobId: job.id }, 'job failed: engine unavailable');
      return;
    }
    const workDir = join(this.o.workRoot, `${job.id}-${job.attempts}-${randomBytes(4).toString('hex')}`);
    const renewals = new Backoff();
    const renew = setInterval(() => {
      // A refused renewal: the job was canceled, or taken over after our lease lapsed; stop rendering.
      // A failed one (the store unreachable) is tried again at the next tick; the lease may lapse meanwhile.
      void store.renewLease(job.id, this.workerId, this.leaseMs).then(
        (held) => {
          renewals.succeed();
          if (!held) this.abort(r, 'canceled');
        },
        (err) => {
          const { log: say, failures } = renewals.fail();
          if (say) log.warn({ err, jobId: job.id, failures }, 'lease renewal failed');
        },
      );
    }, this.leaseMs / 3);
    const progress = this.progressWriter(job.id);
    log.info({ jobId: job.id, attempt: job.attempts }, 'render started');
    try {
      await mkdir(workDir, { recursive: true });
      // A job of the original contract passes no scenes: the engine's single-scene path.
      const scenes = job.scenes ? await resolveSceneMedia(job.scenes, job.userId, this.o.assets ?? null) : undefined;
      const music = job.music ? await resolveMusicMedia(job.music, job.userId, this.o.assets ?? null) : undefined;
      const brand = job.brand ? await resolveBrandMedia(job.brand, job.userId, this.o.assets ?? null) : undefined;
      const photoPresenters = await resolvePhotoPresenters(job, this.o.photoPresenters ?? null);
      const result = await engine.render({
        jobId: job.id,
        text: job.text,
        templateId: job.templateId,
        voiceId: job.voiceId,
        params: job.params,
        ...(scenes ? { scenes } : {}),
        ...(photoPresenters ? { photoPresenters } : {}),
        ...(job.presenterId !== undefined ? { presenterId: job.presenterId } : {}),
        ...(job.lexicon?.length ? { lexicon: job.lexicon } : {}),
        ...(music ? { music } : {}),
        ...(brand ? { brand } : {}),
        // Jobs stored before the resolution was a job's own render at the server's setting.
        shortSide: job.params.resolution ? SHORT_SIDES[job.params.resolution] : this.o.shortSide,
        workDir,
        signal: r.controller.signal,
        onProgress: progress.report,
      });
      progress.stop();
      if (r.reason) throw r.controller.signal.reason;
      const { videoBytes } = await this.o.storage.publish(job.id, workDir);
      const base = `/api/jobs/${job.id}`;
      const output: JobOutput = {
        videoUrl: `${base}/video`,
        captionsUrl: job.params.captions === 'none' ? '' : `${base}/captions.vtt`,
        thumbnailUrl: `${base}/thumbnail.jpg`,
        durationSeconds: result.durationSeconds,
        width: result.width,
        height: result.height,
        sizeBytes: videoBytes,
      };
      const done = await store.transition(job.id, null, { to: 'completed', output }, this.workerId);
      // Canceled or deleted meanwhile: drop the files. Taken over after our lease lapsed (queued,
      // rendering or completed by another run): the files in place are that job's, keep them.
      const live = !done.ok && done.reason === 'invalid_transition' && ['queued', 'rendering', 'completed'].includes(done.job.status);
      if (!done.ok && !live) await this.o.storage.remove(job.id);
      log.info({ jobId: job.id, completed: done.ok }, 'render finished');
    } catch (err) {
      progress.stop();
      if (r.reason === 'shutdown') {
        await this.requeue(job);
      } else if (r.reason === 'canceled') {
        log.info({ jobId: job.id }, 'render canceled');
      } else {
        // An engine's own words reach the creator; an unexpected fault's (paths, stack) only the log.
        const error =
          err instanceof EngineError && err.code !== 'internal_error'
            ? { code: err.code, message: voicePackFailure(err.message) }
            : { code: 'internal_error', message: 'the render failed unexpectedly' };
        if (error.code === 'internal_error') log.error({ err, jobId: job.id }, 'render failed');
        else log.warn({ err, jobId: job.id }, 'render failed'); // with the encoder's detail, when it has one
        await store.transition(job.id, null, { to: 'failed', error }, this.workerId);
      }
    } finally {
      clearInterval(renew);
      await rm(workDir, { recursive: true, force: true }).catch((err: unknown) => log.warn({ err, jobId: job.id }, 'could not remove the work folder; the next start clears work/'));
    }
  }

  private async requeue(job: StoredJob): Promise<void> {
    const r = await this.o.store.transition(job.id, null, { to: 'queued', reason: 'shutdown' }, this.workerId);
    if (r.ok) this.o.log.info({ jobId: job.id }, 'render requeued at shutdown');
  }

  /** Throttles progress writes; the store keeps the value monotonic. */
  private progressWriter(jobId: string) {
    const interval = this.o.progressIntervalMs ?? 250;
    let last = 0;
    let pending: number | null = null;
    let timer: NodeJS.Timeout | null = null;
    let stopped = false;
    const writes = new Backoff();
    const flush = () => {
      timer = null;
      if (pending === null || stopped) return;
      const p = pending;
      pending = null;
      last = Date.now();
      // Progress is advisory: a failed write is overtaken by the next one (or by the job's end).
      void this.o.store.setProgress(jobId, this.workerId, p).then(
        () => writes.succeed(),
        (err) => {
          const { log: say, failures } = writes.fail();
          if (say) this.o.log.warn({ err, jobId, failures }, 'progress not saved');
        },
      );
    };
    return {
      report: (p: number) => {
        if (stopped || typeof p !== 'number' || !Number.isFinite(p)) return;
        pending = Math.max(pending ?? 0, Math.min(p, 0.99)); // 1 is reserved for "completed"
        if (timer) return;
        const wait = Math.max(0, last + interval - Date.now());
        timer = setTimeout(flush, wait);
      },
      stop: () => {
        stopped = true;
        if (timer) clearTimeout(timer);
      },
    };
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
