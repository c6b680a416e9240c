// @vitest-environment happy-dom
// The job list as a person uses it: rows with title, template and status, live changes,
// selection by checkbox (Shift for a range), Play, and the next page as the end comes into
// view. happy-dom has no layout, so the list's viewport is given (640 px: ten rows).
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job, JobStatus } from '../../../shared/contract/index.js';
import { JobList } from '../../components/JobList.js';
import { ROW_HEIGHT } from '../../components/JobRow.js';

import { EMPTY_COUNTS } from '../../store/jobs.js';
import { makeJob } from '../job-fixture.js';
import { installBridge, TEMPLATES, type Calls } from './support.js';
import { useCatalogs, useJobs } from '../../store/index.js';

const VIEWPORT = 10 * ROW_HEIGHT;
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight')!;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('job-scroller') ? VIEWPORT : (clientHeight.get!.call(this) as number);
    },
  });
});
afterAll(() => Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight));

let n = 0;
/** Each job a minute older than the last: the list is newest first. */
function job(status: JobStatus, extra: Partial<Job> = {}): Job {
  const at = new Date(Date.parse('2026-11-23T09:00:00.000Z') - ++n * 60_000).toISOString();
  return makeJob(`job_${String(n).padStart(4, '0')}`, status, at, { text: `Script number ${n}`, templateId: 'classroom', ...extra });
}
const rows = () => screen.queryAllByRole('row');
const row = (id: string) => document.querySelector<HTMLElement>(`[data-job-id="${id}"]`)!;

let calls: Calls;
beforeEach(() => {
  calls = installBridge({ 'jobs.list': () => ({ jobs: [job('queued')], nextCursor: null, counts: EMPTY_COUNTS, fromCache: false }) });
  useCatalogs.setState({ templates: TEMPLATES });
  useJobs.setState({ ...useJobs.getInitialState(), selected: new Set() });
});

describe('job list', () => {
  it('shows each job with its title, template and status, newest first', () => {
    const a = job('rendering', { progress: 0.42, title: 'Quarterly update' });
    const b = job('failed', { error: { code: 'render_failed', message: 'voice missing' } });
    useJobs.setState({ jobs: [a, b] });
    render(<JobList onPlay={() => {}} />);
    expect(rows().map((r) => r.dataset.jobId)).toEqual([a.id, b.id]);
    expect(within(row(a.id)).getByTestId('job-title').textContent).toContain('Quarterly update');
    expect(within(row(a.id)).getByTestId('job-status').textContent).toBe('Rendering 42%');
    expect(row(a.id).textContent).toContain('Classroom · en-US-Ava · 16:9');
    expect(within(row(b.id)).getByTestId('job-status').textContent).toBe('Failed');
    expect(row(b.id).textContent).toContain('voice missing');
  });

  it('keeps only the rows in view in the page, however long the list', () => {
    useJobs.setState({ jobs: Array.from({ length: 5000 }, () => job('completed')) });
    render(<JobList onPlay={() => {}} />);
    expect(rows().length).toBeGreaterThanOrEqual(10);
    expect(rows().length).toBeLessThan(40);
    expect(screen.getByRole('grid', { name: 'Jobs' }).getAttribute('aria-rowcount')).toBe('5000');
  });

  it('follows a job live: a status change redraws its row in place', () => {
    const a = job('queued');
    useJobs.setState({ jobs: [a], counts: { ...EMPTY_COUNTS, queued: 1 } });
    render(<JobList onPlay={() => {}} />);
    act(() => useJobs.getState().applyEvents([{ type: 'job', profileId: 'p', job: { ...a, status: 'completed', progress: 1, updatedAt: new Date().toISOString() } }]));
    expect(row(a.id).dataset.status).toBe('completed');
    expect(within(row(a.id)).getByRole('button', { name: 'Play' })).toBeTruthy();
  });

  it('selects by checkbox, and Shift selects the range from the last one', () => {
    const jobs = Array.from({ length: 6 }, () => job('completed'));
    useJobs.setState({ jobs });
    render(<JobList onPlay={() => {}} />);
    const box = (i: number) => within(row(jobs[i]!.id)).getByRole('checkbox');
    fireEvent.click(box(1));
    expect([...useJobs.getState().selected]).toEqual([jobs[1]!.id]);
    fireEvent.click(box(4), { shiftKey: true });
    expect(new Set(useJobs.getState().selected)).toEqual(new Set(jobs.slice(1, 5).map((j) => j.id)));
    expect(row(jobs[3]!.id).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(box(1));
    expect(useJobs.getState().selected.has(jobs[1]!.id)).toBe(false);
  });

  it('plays a finished job', () => {
    const a = job('completed');
    useJobs.setState({ jobs: [a] });
    const onPlay = vi.fn();
    render(<JobList onPlay={onPlay} />);
    fireEvent.click(within(row(a.id)).getByRole('button', { name: 'Play' }));
    expect(onPlay).toHaveBeenCalledWith(a);
  });

  it('asks for the next page when the end of a short list is in view', async () => {
    useJobs.setState({ jobs: Array.from({ length: 5 }, () => job('completed')), nextCursor: 'c2' });
    render(<JobList onPlay={() => {}} />);
    await waitFor(() => expect(calls.find((c) => c.method === 'jobs.list')?.input).toMatchObject({ cursor: 'c2' }));
    await waitFor(() => expect(rows()).toHaveLength(6));
  });
});
