// Pages of GET /api/jobs kept per user until any job of that user changes. Clients poll the
// same first page over and over (job sync); this answers them without touching the store.
// Only valid when every change reaches store.subscribe synchronously (the embedded SQLite
// store of this process); a shared store across processes runs without it.
// Bounded by the bytes its pages hold, not by their number: one page of long scripts can be
// over a megabyte, and a client chooses how many different queries it sends.
import type { JobListQuery, JobStatus } from '../../shared/contract/index.js';
import { LIMITS } from '../../shared/contract/index.js';
import type { JobStore } from '../jobs/store.js';

/** Default bound of all cached pages together. */
export const LIST_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The cache key of a parsed query: spellings that ask for the same page (`limit=0100`,
 * `status=failed,queued` and `status=queued,failed`, parameter order) share one entry.
 */
export function pageKey(q: JobListQuery): string {
  const statuses: JobStatus[] = [...new Set(q.status ?? [])].sort();
  return JSON.stringify([q.limit ?? LIMITS.listDefaultLimit, statuses, q.q ?? '', q.cursor ?? '']);
}

/** Memory a string holds, at most (V8 keeps non-Latin-1 text at two bytes a character). */
const bytesOf = (s: string) => s.length * 2;

export class ListCache {
  /** `userId \n key` → page; Map order is insertion order, so the first entries are the oldest. */
  private readonly pages = new Map<string, { userId: string; body: string }>();
  private readonly keysOf = new Map<string, Set<string>>();
  private readonly generations = new Map<string, number>();
  private held = 0;
  private readonly unsubscribe: () => void;

  constructor(
    store: JobStore,
    readonly maxBytes = LIST_CACHE_MAX_BYTES,
  ) {
    this.unsubscribe = store.subscribe(({ job }) => this.invalidate(job.userId));
  }

  /** Bytes held by the cached pages and their keys. */
  get bytes(): number {
    return this.held;
  }

  /** Read before querying; `set` refuses a page if a change came in between. */
  generation(userId: string): number {
    return this.generations.get(userId) ?? 0;
  }

  get(userId: string, key: string): string | undefined {
    return this.pages.get(`${userId}\n${key}`)?.body;
  }

  set(userId: string, key: string, body: string, generation: number): void {
    if (this.generation(userId) !== generation) return;
    const id = `${userId}\n${key}`;
    const size = bytesOf(id) + bytesOf(body);
    if (size > this.maxBytes / 4) return; // a page this large would evict most others
    this.drop(id);
    this.pages.set(id, { userId, body });
    let keys = this.keysOf.get(userId);
    if (!keys) this.keysOf.set(userId, (keys = new Set()));
    keys.add(id);
    this.held += size;
    for (const oldest of this.pages.keys()) {
      if (this.held <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  invalidate(userId: string): void {
    this.generations.set(userId, this.generation(userId) + 1);
    for (const id of this.keysOf.get(userId) ?? []) this.drop(id);
  }

  close(): void {
    this.unsubscribe();
    this.pages.clear();
    this.keysOf.clear();
    this.held = 0;
  }

  private drop(id: string): void {
    const page = this.pages.get(id);
    if (!page) return;
    this.pages.delete(id);
    this.held -= bytesOf(id) + bytesOf(page.body);
    const keys = this.keysOf.get(page.userId);
    keys?.delete(id);
    if (keys?.size === 0) this.keysOf.delete(page.userId);
  }
}
