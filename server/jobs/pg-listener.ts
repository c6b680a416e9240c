// One LISTEN connection that survives restarts of the database: on error it reconnects with
// a growing pause. Notifications sent while it was away are lost; the worker queue's poll and
// the lease recovery do not depend on them.
import pg from 'pg';

export class PgListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = 250;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly channel: string,
    private readonly onPayload: (payload: string) => void,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Resolves once listening (the first connection must succeed). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.config, application_name: 'presenter-studio listener' });
    client.on('notification', (msg) => {
      if (msg.channel === this.channel && msg.payload !== undefined) this.onPayload(msg.payload);
    });
    client.on('error', (err) => {
      this.onError(err);
      this.drop(client);
    });
    client.on('end', () => this.drop(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
    } catch (err) {
      // A connection that failed to start may fail to end too: it is dropped either way; the start's error is the one reported.
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      // Closed while connecting: ending the unused connection can only fail if it already broke.
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = 250;
  }

  private drop(old: pg.Client): void {
    if (this.client !== old) return;
    this.client = null;
    // The dropped connection already failed (its error went to onError); ending it is cleanup.
    void old.end().catch(() => undefined);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect().catch((err: Error) => {
        this.onError(err);
        this.retryMs = Math.min(this.retryMs * 2, 10_000);
        this.schedule();
      });
    }, this.retryMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const c = this.client;
    this.client = null;
    // Closing: a connection that already broke has nothing left to end.
    await c?.end().catch(() => undefined);
  }
}
