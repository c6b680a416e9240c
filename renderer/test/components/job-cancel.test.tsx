// @vitest-environment happy-dom
// Cancelling a job that is under way is one click, so it offers a way back: Undo renders it
// again (a retry: a new job). The draft's "Last render" line follows the newest job of that
// render, after a Retry as after that Undo.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Job } from '../../../shared/contract/index.js';
import { JobRow } from '../../components/JobRow.js';
import { Notices } from '../../components/Notices.js';
import { RenderBar } from '../../components/RenderBar.js';
import { useCatalogs, useEditor, useJobs, useUi } from '../../store/index.js';
import { makeJob } from '../job-fixture.js';
import { installBridge, TEMPLATES, type Calls } from './support.js';

const AT = '2026-11-23T09:00:00.000Z';
let calls: Calls;
let running: Job;
beforeAll(() => useCatalogs.setState({ templates: TEMPLATES }));
beforeEach(() => {
  running = makeJob('job_0001', 'rendering', AT, { progress: 0.21, title: 'Five-minute render' });
  calls = installBridge({
    'jobs.cancel': ({ id }: { id: string }) => ({ ...running, id, status: 'canceled', updatedAt: '2026-11-23T09:01:00.000Z' }),
    'jobs.retry': () => ({ job: makeJob('job_0002', 'queued', '2026-11-23T09:02:00.000Z', { title: 'Five-minute render' }), queued: null }),
  });
  for (const n of useUi.getState().notices) useUi.getState().dismiss(n.id, true);
  useJobs.setState({ jobs: [running] });
  useEditor.setState({ lastSubmit: { job: running, queued: null } });
});

function ui(job: Job) {
  return render(
    <>
      <div role="grid">
        <JobRow job={job} templateName="Newsroom" selected={false} now={Date.parse(AT)} onToggle={() => {}} onPlay={() => {}} />
      </div>
      <RenderBar />
      <Notices />
    </>,
  );
}

describe('cancelling a running job', () => {
  it('offers Undo, which renders it again, and the render bar follows the new job', async () => {
    ui(running);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel job' }));
    const notice = await screen.findByText(/Canceled “Five-minute render”/);
    expect(calls.filter((c) => c.method === 'jobs.cancel')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('last-job-status').textContent).toBe('Canceled'));
    fireEvent.click(within(notice.closest('.notice') as HTMLElement).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'jobs.retry')).toEqual([{ method: 'jobs.retry', input: { id: 'job_0001' } }]));
    await waitFor(() => expect(screen.getByTestId('last-job-status').textContent).toBe('Queued'));
  });

  it('after Retry the draft says what became of the new job, not "Canceled"', async () => {
    const canceled = { ...running, status: 'canceled' as const, progress: 0.21 };
    useEditor.setState({ lastSubmit: { job: canceled, queued: null } });
    ui(canceled);
    expect(screen.getByTestId('last-job-status').textContent).toBe('Canceled');
    fireEvent.click(screen.getByRole('button', { name: 'Retry job' }));
    await waitFor(() => expect(screen.getByTestId('last-job-status').textContent).toBe('Queued'));
  });
});
