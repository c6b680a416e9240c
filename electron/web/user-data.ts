// What anonymous users of the web shell keep on disk (<data>/users/<id>): how many drafts each
// has, held to a per-user and a shell-wide number, and the age-out of users who never came back.
// A dropped cookie is a new user, so only the shell-wide number bounds the disk.
import { readdir, rm, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../services/csv.js';
import type { Refusal } from './shell-limits.js';

const QUOTA_RETRY_SECONDS = 60;
const DRAFT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Touched when a user's services open and close: when they were last there. */
const LAST_USED = 'last-used';

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

export class UserData {
  /** Drafts per user as last counted on disk. */
  private readonly drafts = new Map<string, number>();

  constructor(
    private readonly usersDir: string,
    private readonly limits: { draftsPerUser: number; drafts: number },
  ) {}

  /** Counts every user's drafts once at start. */
  async load(): Promise<void> {
    for (const id of await this.users()) this.drafts.set(id, await this.countDrafts(id));
  }

  /** How many new drafts a bridge call would make (0 for everything else). */
  draftsMadeBy(userId: string, method: string, input: unknown): number {
    const i = input as Record<string, unknown> | undefined;
    if (method === 'jobs.duplicate') return 1;
    if (method === 'jobs.importCsv' && i?.mode === 'drafts' && typeof i.csv === 'string') return Math.max(0, parseCsv(i.csv).length - 1);
    if (method !== 'drafts.save') return 0;
    const id = i?.id;
    // A save of a draft that exists changes it; one with a new (or no) id makes one.
    return typeof id === 'string' && DRAFT_ID.test(id) && existsSync(join(this.usersDir, userId, 'drafts', `${id}.json`)) ? 0 : 1;
  }

  /** May this user make `count` more drafts? */
  async admitDrafts(userId: string, count: number): Promise<Refusal | null> {
    const mine = await this.recount(userId);
    if (mine + count > this.limits.draftsPerUser) {
      return { code: 'quota_exceeded', message: `at most ${this.limits.draftsPerUser} drafts per user; delete some first`, retryAfterSeconds: QUOTA_RETRY_SECONDS };
    }
    let all = 0;
    for (const n of this.drafts.values()) all += n;
    if (all + count > this.limits.drafts) {
      return { code: 'quota_exceeded', message: 'this studio holds as many drafts as it can; try again later', retryAfterSeconds: QUOTA_RETRY_SECONDS };
    }
    return null;
  }

  /** Counts the user's drafts again (after a call that made or removed some). */
  async recount(userId: string): Promise<number> {
    const n = await this.countDrafts(userId);
    this.drafts.set(userId, n);
    return n;
  }

  /** Records when the user was last here (`at`, ms since the epoch). */
  async touch(userId: string, at: number): Promise<void> {
    const dir = join(this.usersDir, userId);
    await mkdir(dir, { recursive: true });
    const when = new Date(at);
    const marker = join(dir, LAST_USED);
    await utimes(marker, when, when).catch(async (e: unknown) => {
      if (!isMissing(e)) throw e; // the user's first visit: the marker is made below
      await writeFile(marker, '');
      await utimes(marker, when, when);
    });
  }

  /** Removes the data of users not seen for `maxAgeMs` (except those `inUse`); returns their ids. */
  async ageOut(maxAgeMs: number, inUse: (userId: string) => boolean, now: number): Promise<string[]> {
    const gone: string[] = [];
    for (const id of await this.users()) {
      if (inUse(id)) continue;
      const dir = join(this.usersDir, id);
      const seen = await stat(join(dir, LAST_USED)).catch((e: unknown) => {
        if (isMissing(e)) return stat(dir); // written by a version without the marker
        throw e;
      });
      if (now - seen.mtimeMs < maxAgeMs || inUse(id)) continue;
      await rm(dir, { recursive: true, force: true });
      this.drafts.delete(id);
      gone.push(id);
    }
    return gone;
  }

  private async users(): Promise<string[]> {
    try {
      return (await readdir(this.usersDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    } catch (e) {
      if (isMissing(e)) return []; // no user yet
      throw e;
    }
  }

  private async countDrafts(userId: string): Promise<number> {
    try {
      return (await readdir(join(this.usersDir, userId, 'drafts'))).filter((f) => f.endsWith('.json')).length;
    } catch (e) {
      if (isMissing(e)) return 0; // no draft yet
      throw e;
    }
  }
}
