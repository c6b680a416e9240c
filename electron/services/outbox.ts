// The outbox: a submit made while the render API is unreachable waits here, one file per item,
// and is sent again when the API answers. The item id is the Idempotency-Key of every attempt,
// so however often it is sent the API makes one job; flushes never overlap, and an item is
// removed only after the API has answered with its job. Busy answers (429, 5xx) are retried
// with backoff, no sooner than Retry-After; a refusal (bad key, 4xx) waits for "Send again"
// or a change to its connection's settings.
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Job, RenderRequest } from '../../shared/contract/index.js';
import { isRetryable, OUTBOX_VERSION, OutboxFile, type OutboxItem } from '../../shared/bridge/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';
import { BridgeFailure, toBridgeError } from './errors.js';
import type { RenderApiClient } from './api-client.js';
import { reason, type Logger } from './logger.js';

export interface OutboxOptions {
  dir: string;
  clientFor: (profileId: string) => Promise<RenderApiClient>;
  onChange: (items: OutboxItem[]) => void;
  onSent: (profileId: string, job: Job, request: RenderRequest) => void;
  /** The request as this profile's API takes it (e.g. without an extension it lacks). */
  prepare?: (profileId: string, request: RenderRequest) => Promise<RenderRequest>;
  /** A scheduled flush that failed as a whole (it is tried again at the next schedule). */
  log: Logger;
}

const MAX_DELAY_MS = 30_000;

export class Outbox {
  private flushing: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private delayMs = 2000;
  private closed = false;
  /** Removed by the user: a send already under way must not write them back. */
  private readonly removed = new Set<string>();
  /** Retry-After of the last answer, per item (epoch ms). */
  private readonly notBefore = new Map<string, number>();
  constructor(private readonly opts: OutboxOptions) {}

  private file(id: string) {
    return join(this.opts.dir, `${id}.json`);
  }

  async list(): Promise<OutboxItem[]> {
    let names: string[];
    try {
      names = (await readdir(this.opts.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    } catch {
      return [];
    }
    const items: OutboxItem[] = [];
    for (const n of names) {
      const it = await readJson(join(this.opts.dir, n), OutboxFile, null);
      if (it) items.push(it);
    }
    return items.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  private async changed() {
    this.opts.onChange(await this.list());
  }

  /** Sends now; if the API cannot be reached the request is kept and sent later. */
  async submit(profileId: string, request: RenderRequest): Promise<{ job: Job | null; queued: OutboxItem | null }> {
    const id = randomUUID();
    const client = await this.opts.clientFor(profileId);
    try {
      return { job: await client.submit(await this.prepared(profileId, request), id), queued: null };
    } catch (e) {
      if (!(e instanceof BridgeFailure) || e.code !== 'offline') throw e;
      const item: OutboxItem = { version: OUTBOX_VERSION, id, profileId, request, createdAt: new Date().toISOString(), attempts: 1, lastError: e.toJSON() };
      await writeJsonAtomic(this.file(id), item);
      await this.changed();
      this.schedule();
      return { job: null, queued: item };
    }
  }

  private prepared(profileId: string, request: RenderRequest): Promise<RenderRequest> {
    return this.opts.prepare ? this.opts.prepare(profileId, request) : Promise.resolve(request);
  }

  async remove(id: string): Promise<void> {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new BridgeFailure('not_found', `no outbox item "${id}"`);
    this.removed.add(id);
    try {
      await unlink(this.file(id));
    } catch {
      throw new BridgeFailure('not_found', `no outbox item "${id}"`);
    }
    await this.changed();
  }

  /**
   * Sends refused items again: one (`id`, "Send again") or all of a profile (its settings
   * changed). Their last error is cleared so the next pass sends them.
   */
  async resend(which: { id: string } | { profileId: string }): Promise<void> {
    if ('id' in which && !/^[A-Za-z0-9-]{1,64}$/.test(which.id)) throw new BridgeFailure('not_found', `no outbox item "${which.id}"`);
    const items = (await this.list()).filter((i) => ('id' in which ? i.id === which.id : i.profileId === which.profileId));
    if ('id' in which && !items.length) throw new BridgeFailure('not_found', `no outbox item "${which.id}"`);
    let cleared = false;
    for (const item of items) {
      this.notBefore.delete(item.id);
      if (!item.lastError || isRetryable(item.lastError.code)) continue;
      await writeJsonAtomic(this.file(item.id), { ...item, lastError: null });
      cleared = true;
    }
    if (cleared) await this.changed();
    if (items.length) await this.flush();
  }

  /** Sends every waiting item once; concurrent calls share one pass (and ask for one more). */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      do {
        this.again = false;
        await this.pass();
      } while (this.again && !this.closed);
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async pass(): Promise<void> {
    const items = await this.list();
    let retry = false;
    let changed = false;
    let waitMs = 0;
    for (const item of items) {
      if (this.closed) return;
      // Refusals (validation, auth) wait for the user; unreachable and busy items are retried.
      if (item.lastError && !isRetryable(item.lastError.code)) continue;
      const wait = (this.notBefore.get(item.id) ?? 0) - Date.now();
      if (wait > 0) {
        retry = true;
        waitMs = Math.max(waitMs, wait);
        continue;
      }
      if (this.removed.has(item.id)) continue;
      try {
        const client = await this.opts.clientFor(item.profileId);
        const job = await client.submit(await this.prepared(item.profileId, item.request), item.id);
        // Sent: a file left behind is sent again with the same Idempotency-Key, and the API answers with this job.
        await unlink(this.file(item.id)).catch(() => undefined);
        this.notBefore.delete(item.id);
        changed = true;
        this.opts.onSent(item.profileId, job, item.request);
      } catch (e) {
        const error = toBridgeError(e);
        if (this.removed.has(item.id)) continue; // removed while it was being sent: stays removed
        await writeJsonAtomic(this.file(item.id), { ...item, attempts: item.attempts + 1, lastError: error });
        changed = true;
        if (isRetryable(error.code)) {
          retry = true;
          if (error.retryAfterSeconds) {
            this.notBefore.set(item.id, Date.now() + error.retryAfterSeconds * 1000);
            waitMs = Math.max(waitMs, error.retryAfterSeconds * 1000);
          }
        }
      }
    }
    if (changed) await this.changed();
    if (retry) this.schedule(true, waitMs);
    else this.delayMs = 2000;
  }

  /** Retries with backoff (never sooner than `atLeastMs`) while items wait; the job sync also flushes when the API is back. */
  private schedule(backoff = false, atLeastMs = 0) {
    if (this.closed || this.timer) return;
    if (backoff) this.delayMs = Math.min(this.delayMs * 2, MAX_DELAY_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch((e: unknown) => this.opts.log.warn(`outbox not sent: ${reason(e)}`));
    }, Math.max(this.delayMs, atLeastMs));
    this.timer.unref?.();
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
