// A job as the render API returns it, for renderer tests: only what a test cares about is given.
import type { Job, JobStatus } from '../../shared/contract/index.js';

export function makeJob(id: string, status: JobStatus, at: string, extra: Partial<Job> = {}): Job {
  return {
    id,
    status,
    text: `script ${id}`,
    templateId: 'newsroom',
    voiceId: 'en-US-Ava',
    params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.5, y: 0.5 } },
    progress: status === 'completed' ? 1 : 0,
    createdAt: at,
    updatedAt: at,
    startedAt: null,
    finishedAt: null,
    output: null,
    error: null,
    warnings: [],
    ...extra,
  };
}
