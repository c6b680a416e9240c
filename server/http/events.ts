// Server-sent events per user: event `job` with the Job JSON on every change to that user's
// jobs, and a comment heartbeat to every stream, idle or not, so proxies and clients know it is
// alive. Open streams are capped per user and in total (each holds a socket and a descriptor).
import type { ServerResponse } from 'node:http';
import type { JobChange, JobStore } from '../jobs/store.js';
import { toJob } from '../jobs/store.js';
import { StreamCaps, type StreamSlot } from '../../shared/stream-caps.js';

export const EVENT_STREAM_LIMITS = { perUser: 10, total: 1000 };

export class EventHub {
  private readonly clients = new Map<string, Set<ServerResponse>>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  readonly caps: StreamCaps;

  constructor(store: JobStore, heartbeatMs: number, caps: Partial<typeof EVENT_STREAM_LIMITS> = {}) {
    this.caps = new StreamCaps(caps.perUser ?? EVENT_STREAM_LIMITS.perUser, caps.total ?? EVENT_STREAM_LIMITS.total);
    this.unsubscribe = store.subscribe((change) => this.publish(change));
    this.heartbeat = setInterval(() => this.broadcast(': heartbeat\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  /** A slot for a new stream of this user, or why not (past a cap). */
  reserve(userId: string): StreamSlot {
    return this.caps.open(userId);
  }

  /** Adds a stream holding a reserved slot; the slot is released when the stream closes. */
  add(userId: string, res: ServerResponse, release: () => void = () => undefined): void {
    let set = this.clients.get(userId);
    if (!set) this.clients.set(userId, (set = new Set()));
    set.add(res);
    res.on('close', () => {
      release();
      set.delete(res);
      if (set.size === 0 && this.clients.get(userId) === set) this.clients.delete(userId);
    });
  }

  get size(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  /** Ends every stream (shutdown). */
  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribe();
    for (const set of this.clients.values()) for (const res of set) res.end();
    this.clients.clear();
  }

  private publish({ job, kind }: JobChange): void {
    const set = this.clients.get(job.userId);
    if (!set) return;
    const event = kind === 'deleted' ? 'job_deleted' : 'job';
    const frame = `event: ${event}\nid: ${job.id}:${job.updatedAt}\ndata: ${JSON.stringify(toJob(job))}\n\n`;
    for (const res of set) res.write(frame);
  }

  private broadcast(frame: string): void {
    for (const set of this.clients.values()) for (const res of set) res.write(frame);
  }
}
