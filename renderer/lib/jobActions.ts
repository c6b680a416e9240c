// Row and bulk actions of the job list. Each reports its own failure readably; none throws.
import type { MediaKind } from '../../shared/bridge/index.js';
import { isTerminal, type Job } from '../../shared/contract/index.js';
import { call, describeError } from './bridge.js';
import { useDownloads } from '../store/downloads.js';
import { useEditor } from '../store/editor.js';
import { useJobs } from '../store/jobs.js';
import { useUi } from '../store/ui.js';
import { leaveCurrentDraft } from './draftNav.js';
import { useDrafts } from '../store/drafts.js';

const fail = (what: string, e: unknown) => useUi.getState().notify({ kind: 'error', text: `${what}: ${describeError(e)}` }, 8000);
const excerpt = (job: Job) => job.title || (job.text.length > 40 ? `${job.text.slice(0, 40)}…` : job.text);

export async function cancelJob(job: Job): Promise<boolean> {
  try {
    const j = await call('jobs.cancel', { id: job.id });
    useJobs.getState().applyEvents([{ type: 'job', profileId: '', job: j }]);
    return true;
  } catch (e) {
    fail(`Could not cancel “${excerpt(job)}”`, e);
    return false;
  }
}

export async function deleteJob(job: Job): Promise<boolean> {
  try {
    await call('jobs.delete', { id: job.id });
    useJobs.getState().applyEvents([{ type: 'job-removed', profileId: '', jobId: job.id }]);
    return true;
  } catch (e) {
    fail(`Could not delete “${excerpt(job)}”`, e);
    return false;
  }
}

export async function retryJob(job: Job): Promise<void> {
  try {
    const r = await call('jobs.retry', { id: job.id });
    if (r.job) useJobs.getState().applyEvents([{ type: 'job', profileId: '', job: r.job }]);
    useUi.getState().notify({ kind: 'success', text: r.queued ? 'Retry waits in the outbox (offline).' : 'Rendering again as a new job.' });
  } catch (e) {
    fail('Could not retry', e);
  }
}

export async function duplicateJob(job: Job): Promise<void> {
  try {
    if (!(await leaveCurrentDraft())) return;
    const d = await call('jobs.duplicate', { id: job.id });
    useEditor.getState().open(d);
    useDrafts.getState().upsertLocal({ id: d.id, name: d.name, excerpt: d.text.slice(0, 120), updatedAt: d.updatedAt });
    useUi.getState().setView('create');
    useUi.getState().notify({ kind: 'success', text: 'Copied into a new draft.' });
  } catch (e) {
    fail('Could not duplicate', e);
  }
}

export async function downloadJob(job: Job, kind: MediaKind): Promise<void> {
  try {
    const r = await call('download.start', { jobId: job.id, kind });
    if (r.canceled) return;
    const label = `${excerpt(job)} (${kind === 'captions' ? 'captions' : kind})`;
    if (r.downloadId) {
      useDownloads.getState().add({ id: r.downloadId, label, kind, path: r.path });
    } else {
      // The browser shell saves it through the browser's own downloads.
      useUi.getState().notify({ kind: 'info', text: `Downloading ${label}…` }, 3000);
    }
  } catch (e) {
    fail('Could not download', e);
  }
}

async function inPool<T>(items: T[], size: number, run: (t: T) => Promise<boolean>): Promise<number> {
  let failed = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        if (!(await run(item))) failed++;
      }
    }),
  );
  return failed;
}

export async function bulk(action: 'cancel' | 'delete'): Promise<void> {
  const { jobs, selected } = useJobs.getState();
  const chosen = jobs.filter((j) => selected.has(j.id));
  const eligible = chosen.filter((j) => (action === 'cancel' ? !isTerminal(j.status) : isTerminal(j.status)));
  const skipped = chosen.length - eligible.length;
  const failed = await inPool(eligible, 4, action === 'cancel' ? cancelJob : deleteJob);
  useJobs.getState().clearSelection();
  const done = eligible.length - failed;
  const verb = action === 'cancel' ? 'Canceled' : 'Deleted';
  const why = action === 'cancel' ? 'already finished' : 'still running (cancel them first)';
  useUi.getState().notify({
    kind: failed ? 'error' : 'success',
    text: `${verb} ${done} job${done === 1 ? '' : 's'}.${skipped ? ` ${skipped} skipped: ${why}.` : ''}${failed ? ` ${failed} failed.` : ''}`,
  });
}
