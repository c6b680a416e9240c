// Limits of the web shell that do not depend on the user cookie: dropping the cookie gives a
// new anonymous user (with fresh per-user limits at the render API), so the shell itself caps
// how many identities one client address gets, how many renders the whole shell creates per
// minute and has active at once, how many event streams are open, and the files it passes on.
import { ASSET_LIMITS, isTerminal, type Job } from '../../shared/contract/index.js';
import { SlidingWindowLimiter } from '../../shared/sliding-window.js';
import { StreamCaps } from '../../shared/stream-caps.js';

export interface ShellLimits {
  /** New anonymous users (cookies issued) per client address per hour. */
  identitiesPerAddressPerHour: number;
  /** Render jobs created through the shell per minute, all users together. */
  createsPerMinute: number;
  /** Jobs created through the shell and not yet seen finished, all users together. */
  activeJobs: number;
  /** Open event streams (GET /bridge/events) per user and in total. */
  eventStreamsPerUser: number;
  eventStreams: number;
  /** The largest file the shell passes on (the render API's own per-kind limits apply after it). */
  uploadMaxBytes: number;
  /** Uploads streaming through the shell at once, per user and in total. */
  uploadsPerUser: number;
  uploads: number;
  /** Uploads a user may start per hour. */
  uploadsPerUserPerHour: number;
  /** Drafts kept per user and in all (electron/web/user-data.ts holds them to it). */
  draftsPerUser: number;
  drafts: number;
}

export const DEFAULT_SHELL_LIMITS: ShellLimits = {
  identitiesPerAddressPerHour: 60,
  createsPerMinute: 300,
  activeJobs: 1000,
  eventStreamsPerUser: 8,
  eventStreams: 1000,
  uploadMaxBytes: Math.max(...Object.values(ASSET_LIMITS.maxBytes)),
  uploadsPerUser: 4,
  uploads: 200,
  uploadsPerUserPerHour: 500,
  draftsPerUser: 500,
  drafts: 100_000,
};

/** A job the shell never sees finish (its user left) stops counting as active after this long. */
const ACTIVE_TTL_MS = 2 * 60 * 60_000;
const ACTIVE_RETRY_SECONDS = 30;
const STREAM_RETRY_SECONDS = 10;

/** No `retryAfterSeconds` when waiting cannot help (a batch larger than a limit). */
export type Refusal = { code: 'rate_limited' | 'quota_exceeded'; message: string; retryAfterSeconds?: number };

export class ShellGuard {
  readonly limits: ShellLimits;
  private readonly identities: SlidingWindowLimiter;
  private readonly creates: SlidingWindowLimiter;
  private readonly active = new Map<string, number>(); // job id → when it stops counting
  private readonly streams: StreamCaps;
  private readonly uploadSlots: StreamCaps;
  private readonly uploadStarts: SlidingWindowLimiter;

  constructor(limits: Partial<ShellLimits> = {}) {
    this.limits = { ...DEFAULT_SHELL_LIMITS, ...limits };
    this.identities = new SlidingWindowLimiter(this.limits.identitiesPerAddressPerHour, 60 * 60_000);
    this.creates = new SlidingWindowLimiter(this.limits.createsPerMinute);
    this.streams = new StreamCaps(this.limits.eventStreamsPerUser, this.limits.eventStreams);
    this.uploadSlots = new StreamCaps(this.limits.uploadsPerUser, this.limits.uploads);
    this.uploadStarts = new SlidingWindowLimiter(this.limits.uploadsPerUserPerHour, 60 * 60_000);
  }

  /** Starts an upload for a user: its slot until released, or why not. */
  openUpload(userId: string): { release(): void } | Refusal {
    const slot = this.uploadSlots.open(userId);
    if (!slot.ok) {
      return {
        code: 'rate_limited',
        message: slot.reason === 'user' ? `at most ${this.limits.uploadsPerUser} files upload at once; the next starts when one has finished` : 'the studio is receiving many files right now; try again shortly',
        retryAfterSeconds: STREAM_RETRY_SECONDS,
      };
    }
    const started = this.uploadStarts.take(userId);
    if (!started.ok) {
      slot.release();
      return { code: 'rate_limited', message: `at most ${this.limits.uploadsPerUserPerHour} uploads an hour`, retryAfterSeconds: started.retryAfterSeconds };
    }
    return slot;
  }

  /** May this client address get a new anonymous user now? */
  newIdentity(address: string): Refusal | null {
    const slot = this.identities.take(address);
    if (slot.ok) return null;
    return {
      code: 'rate_limited',
      message: `too many new visitors from your address (at most ${this.limits.identitiesPerAddressPerHour} an hour); keep your cookie or try again later`,
      retryAfterSeconds: slot.retryAfterSeconds,
    };
  }

  /** Takes `count` creates from the shell-wide budget, or says why not (nothing taken then). */
  admitCreates(count: number, now = Date.now()): Refusal | null {
    this.expire(now);
    const { activeJobs, createsPerMinute } = this.limits;
    const batch = `this makes ${count} renders at once`;
    if (count > activeJobs) return { code: 'quota_exceeded', message: `${batch} and the studio takes at most ${activeJobs} queued or running; send at most ${activeJobs} at a time` };
    if (count > createsPerMinute) return { code: 'rate_limited', message: `${batch} and the studio takes at most ${createsPerMinute} a minute; send at most ${createsPerMinute} at a time` };
    if (this.active.size + count > activeJobs) {
      return {
        code: 'quota_exceeded',
        message: `the studio has ${this.active.size} renders queued or running (at most ${this.limits.activeJobs}); try again when some have finished`,
        retryAfterSeconds: ACTIVE_RETRY_SECONDS,
      };
    }
    for (let i = 0; i < count; i++) {
      const slot = this.creates.take('shell', now);
      if (!slot.ok) {
        for (let j = 0; j < i; j++) this.creates.refund('shell');
        return {
          code: 'rate_limited',
          message: `the studio takes at most ${this.limits.createsPerMinute} renders a minute from all its users; try again shortly`,
          retryAfterSeconds: slot.retryAfterSeconds,
        };
      }
    }
    return null;
  }

  /** Gives back creates that did not happen (refused, or queued in the outbox). */
  refundCreates(count: number): void {
    for (let i = 0; i < count; i++) this.creates.refund('shell');
  }

  /** A job the shell created: active until seen finished (or the TTL passes). */
  created(job: Pick<Job, 'id' | 'status'>, now = Date.now()): void {
    if (!isTerminal(job.status)) this.active.set(job.id, now + ACTIVE_TTL_MS);
  }

  /** An update on any job: a finished one no longer counts. */
  seen(job: Pick<Job, 'id' | 'status'>): void {
    if (isTerminal(job.status)) this.active.delete(job.id);
  }

  jobGone(id: string): void {
    this.active.delete(id);
  }

  get activeJobs(): number {
    this.expire(Date.now());
    return this.active.size;
  }

  /** Opens an event stream for a user; returns its release, or a refusal past the caps. */
  openStream(userId: string): { release(): void } | Refusal {
    const slot = this.streams.open(userId);
    if (slot.ok) return slot;
    return {
      code: 'rate_limited',
      message:
        slot.reason === 'user'
          ? `at most ${this.limits.eventStreamsPerUser} open event streams per user; close other tabs of the studio`
          : `the studio has ${slot.open} open event streams (at most ${this.limits.eventStreams}); try again shortly`,
      retryAfterSeconds: STREAM_RETRY_SECONDS,
    };
  }

  /** Forgets empty windows (called from time to time). */
  sweep(): void {
    this.identities.sweep();
    this.creates.sweep();
    this.uploadStarts.sweep();
    this.expire(Date.now());
  }

  private expire(now: number): void {
    for (const [id, until] of this.active) if (until <= now) this.active.delete(id);
  }
}
