// Retries of a background step that keeps failing (a full disk, a database that is down): each
// failure doubles the wait up to a ceiling, so the step and its log line come ever more rarely;
// the first success starts over.
export class Backoff {
  private failures = 0;
  private retryAt = 0;

  constructor(
    private readonly firstMs = 1000,
    private readonly maxMs = 60_000,
  ) {}

  /** Whether the step may run now. */
  ready(now = Date.now()): boolean {
    return now >= this.retryAt;
  }

  /** Records a failure; returns how long until the next try and how many failed in a row. */
  fail(now = Date.now()): { retryInMs: number; failures: number } {
    this.failures++;
    const retryInMs = Math.min(this.maxMs, this.firstMs * 2 ** (this.failures - 1));
    this.retryAt = now + retryInMs;
    return { retryInMs, failures: this.failures };
  }

  succeed(): void {
    this.failures = 0;
    this.retryAt = 0;
  }
}
