// Keeps the UI's job list live: SSE where the API has it, otherwise polling with backoff.
// Bursts of updates are coalesced (latest state per job, flushed on a short timer) so a render
// reporting progress many times a second costs the UI one update per tick. Going offline and
// coming back is reported, and coming back flushes the outbox and marks the list stale.
import type { Job } from '../../shared/contract/index.js';
import type { BridgeError, StudioEvent } from '../../shared/bridge/index.js';
import type { RenderApiClient } from './api-client.js';
import { BridgeFailure, toBridgeError } from './errors.js';
import { normalizeJob } from './normalize.js';
import { readSse, SseStalled } from './sse.js';

export interface JobSyncOptions {
  profileId: string;
  client: () => Promise<RenderApiClient>;
  /** Does this API have GET /api/events? Asked once per connection. */
  hasEvents: () => Promise<boolean>;
  emit: (e: StudioEvent) => void;
  /** Jobs as the renderer should see them (media URLs rewritten, caches updated). */
  present: (job: Job) => Job;
  onOnline: () => void;
  coalesceMs?: number;
  minPollMs?: number;
  maxPollMs?: number;
  /** How long the event stream may stay silent (the API sends a heartbeat every 15 s). */
  idleMs?: number;
}

/** Two and a half of the render API's 15 s heartbeats. */
const EVENTS_IDLE_MS = 40_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

export class JobSync {
  private abort = new AbortController();
  private pending = new Map<string, Job>();
  private flushTimer: NodeJS.Timeout | null = null;
  private online: boolean | null = null;
  private known = new Map<string, string>();
  private seeded = false;
  constructor(private readonly o: JobSyncOptions) {}

  start(): void {
    void this.loop(this.abort.signal);
  }

  stop(): void {
    this.abort.abort();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.pending.clear();
  }

  /** Queue one job update; many updates to one job within the window become one event. */
  push(job: Job): void {
    this.pending.set(job.id, job);
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), this.o.coalesceMs ?? 100);
      this.flushTimer.unref?.();
    }
  }

  private flush(): void {
    this.flushTimer = null;
    const jobs = [...this.pending.values()];
    this.pending.clear();
    for (const job of jobs) {
      this.known.set(job.id, `${job.status}|${job.updatedAt}|${job.progress}`);
      this.o.emit({ type: 'job', profileId: this.o.profileId, job: this.o.present(job) });
    }
  }

  private problemCode: string | null = null;

  /** Reports a change of reachability, or of the reason the API cannot be used (a refused key is not "offline"). */
  private setOnline(online: boolean, problem: BridgeError | null = null): void {
    const code = online ? null : (problem?.code ?? 'offline');
    if (this.online === online && this.problemCode === code) return;
    const wasOffline = this.online === false;
    this.online = online;
    this.problemCode = code;
    this.o.emit({ type: 'connection', profileId: this.o.profileId, online, problem: online ? null : (problem ?? { code: 'offline', message: 'the render API could not be reached' }) });
    if (online && wasOffline) {
      this.o.emit({ type: 'jobs-stale', profileId: this.o.profileId });
      this.o.onOnline();
    }
  }

  private async loop(signal: AbortSignal): Promise<void> {
    const min = this.o.minPollMs ?? 1000;
    const max = this.o.maxPollMs ?? 15_000;
    let delay = min;
    while (!signal.aborted) {
      let changed = false;
      try {
        const client = await this.o.client();
        // Capabilities not known (the API does not answer): polling, which reports offline.
        if (await this.o.hasEvents().catch(() => false)) {
          await this.listen(client, signal);
          delay = min;
          continue; // the stream ended: reconnect (after a pause below if it keeps failing)
        }
        changed = await this.poll(client);
        this.setOnline(true);
      } catch (e) {
        if (signal.aborted) return;
        this.setOnline(false, toBridgeError(e));
      }
      delay = changed ? min : Math.min(max, delay * 2);
      await sleep(delay, signal);
    }
  }

  private async listen(client: RenderApiClient, signal: AbortSignal): Promise<void> {
    const res = await client.fetch('GET', '/api/events', { headers: { accept: 'text/event-stream' }, signal, timeoutMs: 10_000, retries: 0, streaming: true });
    this.setOnline(true);
    // Catch up on what changed while we were away before trusting the stream.
    await this.poll(client).catch(() => false); // a missed catch-up: the stream's events and the next reconnect make up for it
    if (!res.body) return;
    try {
      for await (const msg of readSse(res.body, this.o.idleMs ?? EVENTS_IDLE_MS)) {
        if (signal.aborted) return;
        if (msg.event !== 'job') continue;
        try {
          this.push(normalizeJob(JSON.parse(msg.data)));
        } catch {
          // a malformed event is skipped; the next poll or event brings the truth
        }
      }
    } catch (e) {
      if (e instanceof SseStalled) throw new BridgeFailure('offline', 'the render API stopped answering (no heartbeat on its event stream)');
      throw e;
    }
    throw new BridgeFailure('offline', 'the event stream ended');
  }

  private async poll(client: RenderApiClient): Promise<boolean> {
    const list = await client.listJobs({ limit: 50 });
    let changed = false;
    // The first look only learns the current state: the UI loads the list itself.
    const seeding = !this.seeded;
    this.seeded = true;
    for (const job of list.jobs) {
      const sig = `${job.status}|${job.updatedAt}|${job.progress}`;
      if (seeding) {
        this.known.set(job.id, sig);
        continue;
      }
      if (this.known.get(job.id) !== sig) {
        changed = true;
        this.push(job);
      }
    }
    return changed;
  }
}
