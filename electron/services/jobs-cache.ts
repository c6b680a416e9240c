// The last job list per profile, on disk, so the list can be viewed offline; and the titles
// (draft names) of jobs sent to APIs without the `title` extension, so their rows keep them.
import { join } from 'node:path';
import { z } from 'zod';
import { Job } from '../../shared/contract/index.js';
import type { JobListResult, JobsListInput } from '../../shared/bridge/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';
import { countStatuses } from './normalize.js';

const MAX_TITLES = 5000;

export class JobsCache {
  private readonly titles = new Map<string, Map<string, string>>();
  constructor(private readonly dir: string) {}
  private file(profileId: string) {
    return join(this.dir, `${profileId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }
  async read(profileId: string): Promise<Job[] | null> {
    return readJson(this.file(profileId), z.array(Job), null);
  }
  write(profileId: string, jobs: Job[]): Promise<void> {
    return writeJsonAtomic(this.file(profileId), jobs);
  }
  private titlesFile(profileId: string) {
    return this.file(profileId).replace(/\.json$/, '.titles.json');
  }
  /** Reads a profile's titles once, so `withTitle` can answer without waiting. */
  async loadTitles(profileId: string): Promise<void> {
    if (this.titles.has(profileId)) return;
    const stored = await readJson(this.titlesFile(profileId), z.record(z.string(), z.string()), {});
    if (!this.titles.has(profileId)) this.titles.set(profileId, new Map(Object.entries(stored)));
  }
  async rememberTitle(profileId: string, jobId: string, title: string): Promise<void> {
    await this.loadTitles(profileId);
    const m = this.titles.get(profileId)!;
    m.set(jobId, title);
    if (m.size > MAX_TITLES) m.delete(m.keys().next().value!);
    await writeJsonAtomic(this.titlesFile(profileId), Object.fromEntries(m));
  }
  /** The job with the title remembered for it, where its API did not keep one. */
  withTitle(profileId: string, job: Job): Job {
    if (job.title) return job;
    const title = this.titles.get(profileId)?.get(job.id);
    return title ? { ...job, title } : job;
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
