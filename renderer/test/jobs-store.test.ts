// The job list store: live events applied in batches keep counts, order and filters right.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job, JobStatus } from '../../shared/contract/index.js';
import { createStudioStore, sliceView, type StudioStore } from '../store/index.js';
import { EMPTY_COUNTS } from '../store/jobs.js';
import { makeJob } from './job-fixture.js';

let clock = Date.parse('2026-11-21T09:00:00.000Z');
const job = (id: string, status: JobStatus, extra: Partial<Job> = {}): Job => makeJob(id, status, new Date((clock += 1000)).toISOString(), extra);
const ev = (j: Job) => ({ type: 'job' as const, profileId: 'p', job: j });

// A store per test: nothing one test saw or hid reaches the next.
let store: StudioStore | undefined;
let useJobs: ReturnType<typeof sliceView<'jobs'>>;
beforeEach(() => {
  store?.dispose();
  store = createStudioStore();
  useJobs = sliceView(store, 'jobs');
});

describe('job list events', () => {
  it('a new job goes on top and moves through its statuses in one list entry', () => {
    const old = job('job_A', 'completed');
    useJobs.setState({ jobs: [old], counts: { ...EMPTY_COUNTS, completed: 1 } });
    const fresh = job('job_B', 'queued');
    const later = (status: JobStatus, progress: number) => ({ ...fresh, status, progress, updatedAt: new Date((clock += 1000)).toISOString() });
    useJobs.getState().applyEvents([ev(fresh), ev(later('rendering', 0.3)), ev(later('rendering', 0.6))]);
    const s = useJobs.getState();
    expect(s.jobs.map((j) => j.id)).toEqual(['job_B', 'job_A']);
    expect(s.jobs[0]).toMatchObject({ status: 'rendering', progress: 0.6 });
    expect(s.counts).toEqual({ ...EMPTY_COUNTS, completed: 1, rendering: 1 });
  });

  it('an out-of-date event never overwrites a newer state', () => {
    const a = job('job_C', 'queued');
    const done = { ...a, status: 'completed' as const, progress: 1, updatedAt: new Date((clock += 5000)).toISOString() };
    useJobs.getState().applyEvents([ev(a), ev(done), ev({ ...a, status: 'rendering', progress: 0.2 })]);
    expect(useJobs.getState().jobs[0]).toMatchObject({ status: 'completed' });
    expect(useJobs.getState().counts).toEqual({ ...EMPTY_COUNTS, completed: 1 });
  });

  it('a filtered list drops jobs that stop matching and ignores ones that never did', () => {
    const f = job('job_D', 'queued');
    useJobs.setState({ status: ['queued'] });
    useJobs.getState().applyEvents([ev(f), ev(job('job_E', 'failed'))]);
    expect(useJobs.getState().jobs.map((j) => j.id)).toEqual(['job_D']);
    useJobs.getState().applyEvents([ev({ ...f, status: 'canceled', updatedAt: new Date((clock += 1000)).toISOString() })]);
    expect(useJobs.getState().jobs).toEqual([]);
    expect(useJobs.getState().counts.canceled).toBe(1);
    expect(useJobs.getState().counts.queued).toBe(0);
  });

  it('a removed job leaves the list, its count and the selection', () => {
    const g = job('job_F', 'failed');
    useJobs.getState().applyEvents([ev(g)]);
    useJobs.getState().toggleSelected('job_F');
    useJobs.getState().applyEvents([{ type: 'job-removed', profileId: 'p', jobId: 'job_F' }]);
    const s = useJobs.getState();
    expect(s.jobs).toEqual([]);
    expect(s.selected.size).toBe(0);
    expect(s.counts.failed).toBe(0);
  });

  it('a hidden job stays out of the list and counts until shown again', () => {
    const h = job('job_H', 'completed');
    useJobs.getState().applyEvents([ev({ ...h, status: 'queued' }), ev(h)]);
    expect(useJobs.getState().counts.completed).toBe(1);
    useJobs.getState().hide([h]);
    expect(useJobs.getState().jobs).toEqual([]);
    expect(useJobs.getState().counts.completed).toBe(0);
    useJobs.getState().applyEvents([ev({ ...h, updatedAt: new Date((clock += 1000)).toISOString() })]);
    expect(useJobs.getState().jobs).toEqual([]);
    useJobs.getState().show([h]);
    expect(useJobs.getState().jobs.map((j) => j.id)).toEqual(['job_H']);
  });

  it('what one store hid or saw does not reach another', () => {
    const h = job('job_I', 'rendering');
    useJobs.getState().applyEvents([ev({ ...h, status: 'queued' }), ev(h)]);
    useJobs.getState().hide([h]);
    const fresh = createStudioStore();
    const other = sliceView(fresh, 'jobs');
    // Unknown to the fresh store: shown, and not counted as a queued job moving on (an older job not loaded here).
    other.getState().applyEvents([ev(h)]);
    expect(other.getState().jobs.map((j) => j.id)).toEqual(['job_I']);
    expect(other.getState().counts.rendering).toBe(0);
    fresh.dispose();
  });

  it('a list answer that raced events does not step jobs or counts back', async () => {
    vi.useFakeTimers();
    const queued = job('job_R', 'queued');
    const canceled = { ...queued, status: 'canceled' as const, updatedAt: new Date((clock += 1000)).toISOString() };
    const counts = (over: Partial<Record<JobStatus, number>>) => ({ ...EMPTY_COUNTS, ...over });
    let answer: (v: unknown) => void = () => undefined;
    const calls: unknown[] = [];
    const studio = {
      call: (method: string, input: { limit?: number }) => {
        calls.push([method, input]);
        // The first list was taken before the cancel; the later counts request after it.
        return calls.length === 1 ? new Promise((ok) => (answer = ok)) : Promise.resolve({ jobs: [canceled], counts: counts({ canceled: 1 }), nextCursor: null, fromCache: false });
      },
      subscribe: () => () => undefined,
    };
    (globalThis as { window?: unknown }).window = { studio };
    try {
      const loading = useJobs.getState().load();
      useJobs.getState().applyEvents([ev(queued), ev(canceled)]);
      answer({ jobs: [queued], counts: counts({ queued: 1 }), nextCursor: null, fromCache: false });
      await loading;
      expect(useJobs.getState().jobs.map((j) => j.status)).toEqual(['canceled']);
      await vi.advanceTimersByTimeAsync(1500);
      expect(calls).toHaveLength(2);
      expect(useJobs.getState().counts).toEqual(counts({ canceled: 1 }));
    } finally {
      delete (globalThis as { window?: unknown }).window;
      vi.useRealTimers();
    }
  });
  it('a counts refresh that raced events is asked again, so the counts end right', async () => {
    vi.useFakeTimers();
    const a = job('job_S', 'queued');
    const b = job('job_T', 'queued');
    const later = (j: Job) => ({ ...j, status: 'canceled' as const, updatedAt: new Date((clock += 1000)).toISOString() });
    const counts = (over: Partial<Record<JobStatus, number>>) => ({ ...EMPTY_COUNTS, ...over });
    const answers: ((v: unknown) => void)[] = [];
    const studio = { call: () => new Promise((ok) => answers.push(ok)), subscribe: () => () => undefined };
    (globalThis as { window?: unknown }).window = { studio };
    try {
      // The list was taken before A's cancel: its counts are stale, so they are asked for again.
      const loading = useJobs.getState().load();
      useJobs.getState().applyEvents([ev(a), ev(b), ev(later(a))]);
      answers[0]!({ jobs: [b, a], counts: counts({ queued: 2 }), nextCursor: null, fromCache: false });
      await loading;
      await vi.advanceTimersByTimeAsync(1500);
      expect(answers).toHaveLength(2);
      // B is canceled while that request is on its way, whose answer predates it.
      useJobs.getState().applyEvents([ev(later(b))]);
      answers[1]!({ jobs: [], counts: counts({ queued: 1, canceled: 1 }), nextCursor: null, fromCache: false });
      await vi.advanceTimersByTimeAsync(1500);
      expect(answers).toHaveLength(3);
      answers[2]!({ jobs: [], counts: counts({ canceled: 2 }), nextCursor: null, fromCache: false });
      await vi.advanceTimersByTimeAsync(0);
      expect(useJobs.getState().counts).toEqual(counts({ canceled: 2 }));
    } finally {
      delete (globalThis as { window?: unknown }).window;
      vi.useRealTimers();
    }
  });
});
