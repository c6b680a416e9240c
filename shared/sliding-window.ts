// A sliding-window rate limit per key (a user, a client address, the whole web shell). In memory:
// one process owns its limits (a fleet would move this into the shared store).
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Records a hit, or returns the seconds to wait when the window is full. */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length >= this.max) {
      this.hits.set(key, list);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((list[0]! + this.windowMs - now) / 1000)) };
    }
    list.push(now);
    this.hits.set(key, list);
    return { ok: true };
  }

  /** Gives back a hit (the create did not happen after all). */
  refund(key: string): void {
    this.hits.get(key)?.pop();
  }

  /** Forgets windows that are empty (called from time to time). */
  sweep(now = Date.now()): void {
    for (const [key, list] of this.hits) if (!list.some((t) => t > now - this.windowMs)) this.hits.delete(key);
  }
}
