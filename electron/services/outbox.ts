// The outbox: a submit made while the render API is unreachable waits here, one file per item,
// and is sent again when the API answers. The item id is the Idempotency-Key of every attempt,
// so however often it is sent the API makes one job; flushes never overlap, and an item is
// removed only after the API has answered with its job.
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Job, RenderRequest } from '../../shared/contract/index.js';
import type { OutboxItem } from '../../shared/bridge/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';
import { BridgeFailure, toBridgeError } from './errors.js';
import type { RenderApiClient } from './api-client.js';

export interface OutboxOptions {
  dir: string;
  clientFor: (profileId: string) => Promise<RenderApiClient>;
  onChange: (items: OutboxItem[]) => void;
  onSent: (profileId: string, job: Job) => void;
}

export class Outbox {
  private flushing: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private delayMs = 2000;
  private closed = false;
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
      const it = await readJson<OutboxItem | null>(join(this.opts.dir, n), null);
      if (it?.id) items.push(it);
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
      return { job: await client.submit(request, id), queued: null };
    } catch (e) {
      if (!(e instanceof BridgeFailure) || e.code !== 'offline') throw e;
      const item: OutboxItem = { id, profileId, request, createdAt: new Date().toISOString(), attempts: 1, lastError: e.toJSON() };
      await writeJsonAtomic(this.file(id), item);
      await this.changed();
      this.schedule();
      return { job: null, queued: item };
    }
  }

  async remove(id: string): Promise<void> {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new BridgeFailure('not_found', `no outbox item "${id}"`);
    try {
      await unlink(this.file(id));
    } catch {
      throw new BridgeFailure('not_found', `no outbox item "${id}"`);
    }
    await this.changed();
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
    let offline = false;
    let changed = false;
    for (const item of items) {
      if (this.closed) return;
      // Final refusals (validation, auth) wait for the user; only unreachable items are retried.
      if (item.lastError && item.lastError.code !== 'offline') continue;
      try {
        const client = await this.opts.clientFor(item.profileId);
        const job = await client.submit(item.request, item.id);
        await unlink(this.file(item.id)).catch(() => undefined);
        changed = true;
        this.opts.onSent(item.profileId, job);
      } catch (e) {
        const error = toBridgeError(e);
        await writeJsonAtomic(this.file(item.id), { ...item, attempts: item.attempts + 1, lastError: error });
        changed = true;
        if (error.code === 'offline') offline = true;
      }
    }
    if (changed) await this.changed();
    if (offline) this.schedule(true);
    else this.delayMs = 2000;
  }

  /** Retries with backoff while items wait (the job sync also flushes when the API is back). */
  private schedule(backoff = false) {
    if (this.closed || this.timer) return;
    if (backoff) this.delayMs = Math.min(this.delayMs * 2, 30_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => undefined);
    }, this.delayMs);
    this.timer.unref?.();
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
