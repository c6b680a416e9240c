// Retries of a background step that keeps failing (a full disk, a database that is down): each
// failure doubles the wait up to a low ceiling, so the step is tried again soon after the cause
// is gone; its log line comes ever more rarely (at the 1st, 2nd, 4th, 8th… failure in a row).
// The first success starts over.
export interface BackoffBounds {
  /** The pause after the first failure. */
  firstMs: number;
  /** The longest pause: how late a recovered disk or database can be noticed. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffBounds = { firstMs: 1000, maxMs: 5000 };

export class Backoff {
  private failures = 0;
  private retryAt = 0;
  private readonly firstMs: number;
  private readonly maxMs: number;

  constructor(bounds: Partial<BackoffBounds> = {}) {
    this.firstMs = bounds.firstMs ?? DEFAULT_BACKOFF.firstMs;
    this.maxMs = Math.max(this.firstMs, bounds.maxMs ?? DEFAULT_BACKOFF.maxMs);
  }

  /** Whether the step may run now. */
  ready(now = Date.now()): boolean {
    return now >= this.retryAt;
  }

  /**
   * Records a failure; returns how long until the next try, how many failed in a row, and
   * whether this failure is one to log.
   */
  fail(now = Date.now()): { retryInMs: number; failures: number; log: boolean } {
    this.failures++;
    const retryInMs = Math.min(this.maxMs, this.firstMs * 2 ** Math.min(30, this.failures - 1));
    this.retryAt = now + retryInMs;
    return { retryInMs, failures: this.failures, log: (this.failures & (this.failures - 1)) === 0 };
  }

  succeed(): void {
    this.failures = 0;
    this.retryAt = 0;
  }
}
