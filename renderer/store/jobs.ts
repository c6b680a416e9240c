// The job list: pages from jobs.list (newest first), live changes from bridge events applied
// in one store update per animation frame, status counts, search, selection, outbox.
import type { OutboxItem, StudioEvent } from '../../shared/bridge/index.js';
import { JOB_STATUSES, zeroCounts, type Job, type JobStatus, type StatusCounts } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import type { SliceApi } from './slice.js';

export const EMPTY_COUNTS: StatusCounts = zeroCounts();
const PAGE = 100;

export interface JobsState {
  jobs: Job[];
  counts: StatusCounts;
  nextCursor: string | null;
  status: JobStatus[];
  q: string;
  loading: boolean;
  loadingMore: boolean;
  fromCache: boolean;
  error: string | null;
  outbox: OutboxItem[];
  selected: ReadonlySet<string>;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  setStatus(s: JobStatus[]): void;
  setQuery(q: string): void;
  applyEvents(events: StudioEvent[]): void;
  toggleSelected(id: string, on?: boolean): void;
  selectAll(ids: string[]): void;
  clearSelection(): void;
  loadOutbox(): Promise<void>;
  /** Hides jobs at once (the list and counts lose them) while their DELETE waits out Undo; `show` brings them back. */
  hide(jobs: Job[]): void;
  show(jobs: Job[]): void;
  /** The job is gone for good: nothing to hide any more. */
  forgetHidden(id: string): void;
  /** Stops the store's timers (a test's store, a closed window). */
  dispose(): void;
}

/** Newest first: ids are time-sortable, createdAt breaks ties for foreign ids. */
export function newestFirst(a: Job, b: Job): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function matchesFilter(job: Job, status: JobStatus[], q: string): boolean {
  if (status.length && !status.includes(job.status)) return false;
  const needle = q.trim().toLowerCase();
  return !needle || job.text.toLowerCase().includes(needle);
}

/**
 * The job list slice. Everything it remembers (hidden jobs, the last state seen of each job,
 * the request sequence, timers) lives in its store, not the module, so a fresh store (each
 * test's) starts clean.
 */
export function createJobsSlice({ set, get }: SliceApi<JobsState>): JobsState {
  /** Jobs deleted in the UI whose DELETE waits out the Undo window: hidden from every list. */
  const hidden = new Map<string, Job>();
  /** Counts as the API gives them, less the hidden jobs (still there until their DELETE). */
  function visibleCounts(counts: StatusCounts): StatusCounts {
    if (!hidden.size) return counts;
    const out = { ...counts };
    for (const j of hidden.values()) out[j.status] = Math.max(0, out[j.status] - 1);
    return out;
  }
  const visible = (jobs: Job[]) => (hidden.size ? jobs.filter((j) => !hidden.has(j.id)) : jobs);

  let seq = 0;
  /** Every job seen (loaded or by event), so an event knows the status it replaces. */
  const lastSeen = new Map<string, Job>();
  /**
   * A list answer can be older than events already applied (they raced the request): a job
   * keeps its newest state, so neither the rows nor later count updates step back.
   */
  const remember = (jobs: Job[]): Job[] =>
    jobs.map((j) => {
      const seen = lastSeen.get(j.id);
      if (seen && seen.updatedAt > j.updatedAt) return seen;
      lastSeen.set(j.id, j);
      return j;
    });
  /** Job events applied so far: a list answer that raced some has counts from before them. */
  let jobEvents = 0;
  let countsTimer: ReturnType<typeof setTimeout> | undefined;
  function scheduleCountsRefresh() {
    clearTimeout(countsTimer);
    countsTimer = setTimeout(async () => {
      const eventsBefore = jobEvents;
      try {
        const r = await call('jobs.list', { limit: 1 });
        set({ counts: visibleCounts(r.counts) });
        // Events arrived while it was on its way: its counts may predate them too.
        if (jobEvents !== eventsBefore) scheduleCountsRefresh();
      } catch {
        /* keep the estimate */
      }
    }, 1000);
  }
  let queryTimer: ReturnType<typeof setTimeout> | undefined;

  return {
    jobs: [],
    counts: EMPTY_COUNTS,
    nextCursor: null,
    status: [],
    q: '',
    loading: false,
    loadingMore: false,
    fromCache: false,
    error: null,
    outbox: [],
    selected: new Set(),
    async load() {
      const mine = ++seq;
      const { status, q } = get();
      const eventsBefore = jobEvents;
      set({ loading: true });
      try {
        const r = await call('jobs.list', { limit: PAGE, ...(status.length ? { status } : {}), ...(q.trim() ? { q: q.trim() } : {}) });
        if (mine !== seq) return;
        const jobs = remember(visible(r.jobs)).filter((j) => matchesFilter(j, status, q));
        set({ jobs, counts: visibleCounts(r.counts), nextCursor: r.nextCursor, fromCache: r.fromCache, loading: false, error: null });
        // Events arrived while the list was on its way: its counts may predate them; ask again.
        if (jobEvents !== eventsBefore) scheduleCountsRefresh();
      } catch (e) {
        if (mine === seq) set({ loading: false, error: describeError(e) });
      }
    },
    async loadMore() {
      const { nextCursor, loadingMore, status, q } = get();
      if (!nextCursor || loadingMore) return;
      const mine = seq;
      set({ loadingMore: true });
      try {
        const r = await call('jobs.list', {
          limit: PAGE,
          cursor: nextCursor,
          ...(status.length ? { status } : {}),
          ...(q.trim() ? { q: q.trim() } : {}),
        });
        if (mine !== seq) return;
        const page = remember(visible(r.jobs)).filter((j) => matchesFilter(j, status, q));
        const known = new Set(get().jobs.map((j) => j.id));
        set({ jobs: [...get().jobs, ...page.filter((j) => !known.has(j.id))], nextCursor: r.nextCursor, loadingMore: false });
      } catch (e) {
        if (mine === seq) set({ loadingMore: false, error: describeError(e) });
      }
    },
    setStatus(status) {
      set({ status, selected: new Set() });
      void get().load();
    },
    setQuery(q) {
      set({ q });
      clearTimeout(queryTimer);
      queryTimer = setTimeout(() => void get().load(), 200);
    },
    applyEvents(events) {
      const s = get();
      const counts = { ...s.counts };
      let outbox = s.outbox;
      let stale = false;
      let countsUnsure = false;
      const changed = new Map<string, Job | null>();
      for (const e of events) {
        if (e.type === 'job') {
          jobEvents++;
          if (hidden.has(e.job.id)) continue;
          const before = lastSeen.get(e.job.id);
          if (before && before.updatedAt > e.job.updatedAt) continue;
          if (before) counts[before.status] = Math.max(0, counts[before.status] - 1);
          else if (e.job.status !== 'queued') countsUnsure = true; // an older job not loaded here
          if (before || e.job.status === 'queued') counts[e.job.status] += 1;
          lastSeen.set(e.job.id, e.job);
          changed.set(e.job.id, matchesFilter(e.job, s.status, s.q) ? e.job : null);
        } else if (e.type === 'job-removed') {
          const before = lastSeen.get(e.jobId);
          if (before) counts[before.status] = Math.max(0, counts[before.status] - 1);
          lastSeen.delete(e.jobId);
          changed.set(e.jobId, null);
        } else if (e.type === 'jobs-stale') {
          stale = true;
        } else if (e.type === 'outbox') {
          outbox = e.items;
        }
      }
      let jobs = s.jobs;
      let selected = s.selected;
      if (changed.size) {
        const next: Job[] = [];
        for (const j of jobs) {
          if (!changed.has(j.id)) next.push(j);
          else {
            const c = changed.get(j.id);
            if (c) next.push(c);
            changed.delete(j.id);
          }
        }
        const added = [...changed.values()].filter((j): j is Job => j !== null);
        jobs = added.length ? [...added, ...next].sort(newestFirst) : next;
        if ([...selected].some((id) => !lastSeen.has(id))) selected = new Set([...selected].filter((id) => lastSeen.has(id)));
      }
      set({ jobs, counts, outbox, selected });
      if (stale) void get().load();
      else if (countsUnsure) scheduleCountsRefresh();
    },
    toggleSelected(id, on) {
      const selected = new Set(get().selected);
      if (on ?? !selected.has(id)) selected.add(id);
      else selected.delete(id);
      set({ selected });
    },
    selectAll(ids) {
      set({ selected: new Set(ids) });
    },
    clearSelection() {
      set({ selected: new Set() });
    },
    hide(jobs) {
      for (const j of jobs) hidden.set(j.id, j);
      get().applyEvents(jobs.map((j) => ({ type: 'job-removed', profileId: '', jobId: j.id })));
    },
    show(jobs) {
      for (const j of jobs) hidden.delete(j.id);
      get().applyEvents(jobs.map((j) => ({ type: 'job', profileId: '', job: j })));
    },
    forgetHidden(id) {
      hidden.delete(id);
    },
    dispose() {
      clearTimeout(countsTimer);
      clearTimeout(queryTimer);
    },
    async loadOutbox() {
      try {
        set({ outbox: await call('outbox.list', undefined) });
      } catch {
        /* the outbox is local; an error here leaves the last known list */
      }
    },
  };
}

export const STATUS_LABEL: Record<JobStatus, string> = {
  queued: 'Queued',
  rendering: 'Rendering',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
};
export { JOB_STATUSES };
