// Pages of GET /api/jobs kept per user until any job of that user changes. Clients poll the
// same first page over and over (job sync); this answers them without touching the store.
// Only valid when every change reaches store.subscribe synchronously (the embedded SQLite
// store of this process); a shared store across processes runs without it.
import type { JobStore } from '../jobs/store.js';

export class ListCache {
  private readonly pages = new Map<string, Map<string, string>>();
  private readonly generations = new Map<string, number>();
  private size = 0;
  private readonly unsubscribe: () => void;

  constructor(
    store: JobStore,
    private readonly maxEntries = 2000,
  ) {
    this.unsubscribe = store.subscribe(({ job }) => this.invalidate(job.userId));
  }

  /** Read before querying; `set` refuses a page if a change came in between. */
  generation(userId: string): number {
    return this.generations.get(userId) ?? 0;
  }

  get(userId: string, key: string): string | undefined {
    return this.pages.get(userId)?.get(key);
  }

  set(userId: string, key: string, body: string, generation: number): void {
    if (this.generation(userId) !== generation) return;
    let user = this.pages.get(userId);
    if (!user) this.pages.set(userId, (user = new Map()));
    if (!user.has(key)) this.size++;
    user.set(key, body);
    // Over the bound: drop the users cached longest ago (Map keeps insertion order).
    for (const [id, pages] of this.pages) {
      if (this.size <= this.maxEntries) break;
      this.size -= pages.size;
      this.pages.delete(id);
    }
  }

  invalidate(userId: string): void {
    this.generations.set(userId, this.generation(userId) + 1);
    const user = this.pages.get(userId);
    if (!user) return;
    this.size -= user.size;
    this.pages.delete(userId);
  }

  close(): void {
    this.unsubscribe();
    this.pages.clear();
  }
}
