// The last job list per profile, on disk, so the list can be viewed offline.
import { join } from 'node:path';
import type { Job } from '../../shared/contract/index.js';
import type { JobListResult, JobsListInput } from '../../shared/bridge/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';
import { countStatuses } from './normalize.js';

export class JobsCache {
  constructor(private readonly dir: string) {}
  private file(profileId: string) {
    return join(this.dir, `${profileId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }
  async read(profileId: string): Promise<Job[] | null> {
    const jobs = await readJson<Job[] | null>(this.file(profileId), null);
    return Array.isArray(jobs) ? jobs : null;
  }
  write(profileId: string, jobs: Job[]): Promise<void> {
    return writeJsonAtomic(this.file(profileId), jobs);
  }
  /** The cached list filtered as the API would (status, text search), one page. */
  async list(profileId: string, input: JobsListInput): Promise<JobListResult | null> {
    const all = await this.read(profileId);
    if (!all) return null;
    const q = input.q?.toLowerCase();
    const matched = all.filter((j) => (!input.status?.length || input.status.includes(j.status)) && (!q || j.text.toLowerCase().includes(q)));
    return { jobs: matched.slice(0, input.limit ?? 20), nextCursor: null, counts: countStatuses(all), fromCache: true };
  }
}
