// Row and bulk actions of the job list. Each reports its own failure readably; none throws.
import type { MediaKind, OutboxItem } from '../../shared/bridge/index.js';
import { isTerminal, type Job } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import { leaveCurrentDraft } from './draftNav.js';
import { scriptExcerpt } from '../lib/excerpt.js';
import { draftSummary, readDraft } from '../lib/drafts.js';
import { useDownloads, useDrafts, useEditor, useJobs, useStudio, useUi } from './index.js';

const hideJobs = (jobs: Job[]): void => useJobs.getState().hide(jobs);
const showJobs = (jobs: Job[]): void => useJobs.getState().show(jobs);
const forgetHidden = (id: string): void => useJobs.getState().forgetHidden(id);

const fail = (what: string, e: unknown) => useUi.getState().notify({ kind: 'error', text: `${what}: ${describeError(e)}` }, 8000);
const excerpt = (job: Job) => job.title || scriptExcerpt(job.text, 40);

/** How long a cancelled render can be brought back (rendered again) from its notice. */
export const UNDO_CANCEL_MS = 8000;

/**
 * Cancels a job; one that was under way is offered back for a while (`undo`): Undo renders it
 * again as a new job, since a render stopped part way cannot resume. Bulk cancels report once.
 */
export async function cancelJob(job: Job, undo = true): Promise<boolean> {
  try {
    const j = await call('jobs.cancel', { id: job.id });
    useJobs.getState().applyEvents([{ type: 'job', profileId: '', job: j }]);
    followRender(job, j);
    if (undo) {
      const at = job.status === 'rendering' && job.progress >= 0.01 ? ` at ${Math.round(job.progress * 100)} %` : '';
      useUi.getState().notify({ kind: 'info', text: `Canceled “${excerpt(job)}”${at}.`, action: { label: 'Undo', run: () => void retryJob(j) } }, UNDO_CANCEL_MS);
    }
    return true;
  } catch (e) {
    fail(`Could not cancel “${excerpt(job)}”`, e);
    return false;
  }
}

/** How long a deleted job can be brought back before its DELETE is sent. */
export const UNDO_DELETE_MS = 8000;
/** How many DELETEs of one batch are in flight at once while the app stays open. */
const DELETES_AT_ONCE = 4;
/**
 * Deletions with DELETEs not yet sent (waiting out their Undo window, or queued behind the
 * pool); each entry sends all of its batch at once, for when the app closes.
 */
const unsentDeletes = new Set<() => void>();

/**
 * Deletes jobs with an Undo window: the rows hide at once; the DELETEs are sent when the
 * notice times out or is dismissed (or the app closes); Undo brings the rows back.
 */
export function deleteJobs(jobs: Job[], note = ''): void {
  if (!jobs.length) return;
  hideJobs(jobs);
  const queue = [...jobs];
  const refused: Job[] = [];
  let firstError: unknown = null;
  let left = jobs.length;
  let allAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (allAnswered = resolve));
  const send = async (job: Job) => {
    try {
      await call('jobs.delete', { id: job.id });
      forgetHidden(job.id);
    } catch (e) {
      refused.push(job);
      firstError ??= e;
    } finally {
      if (--left === 0) allAnswered();
    }
  };
  let settled = false;
  const commit = async () => {
    if (settled) return;
    settled = true;
    await Promise.all(
      Array.from({ length: Math.min(DELETES_AT_ONCE, queue.length) }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) await send(job);
      }),
    );
    await answered; // the ones sent at once by sendNow
    unsentDeletes.delete(sendNow);
    if (!refused.length) return;
    showJobs(refused);
    fail(refused.length === 1 ? `Could not delete “${excerpt(refused[0]!)}”` : `Could not delete ${refused.length} jobs`, firstError);
  };
  // The page is going: every DELETE of the batch leaves now (a queued one would never be sent).
  const sendNow = () => {
    void commit();
    for (const job of queue.splice(0)) void send(job);
  };
  unsentDeletes.add(sendNow);
  useUi.getState().notify(
    {
      kind: 'info',
      text: `${jobs.length === 1 ? `Deleted “${excerpt(jobs[0]!)}”.` : `Deleted ${jobs.length} jobs.`}${note}`,
      action: {
        label: 'Undo',
        run: () => {
          if (settled) return;
          settled = true;
          unsentDeletes.delete(sendNow);
          showJobs(jobs);
        },
      },
      onExpire: () => void commit(),
    },
    UNDO_DELETE_MS,
  );
}

export function deleteJob(job: Job): void {
  deleteJobs([job]);
}

/**
 * The app is closing (pagehide): every DELETE not yet sent is sent now, in this task, since no
 * later one runs. The web shell's transport sends them with `keepalive`, the desktop's over IPC
 * to the main process; both outlive the page.
 */
export function sendPendingDeletes(): void {
  for (const sendNow of [...unsentDeletes]) sendNow();
}

/** The draft's "Last render" line follows a render of its job to the job that replaces it. */
function followRender(before: Job, after: Job | null, queued: OutboxItem | null = null): void {
  const last = useEditor.getState().lastSubmit?.job;
  if (last?.id === before.id) useEditor.setState({ lastSubmit: { job: after, queued } });
}

export async function retryJob(job: Job): Promise<void> {
  try {
    const r = await call('jobs.retry', { id: job.id });
    if (r.job) useJobs.getState().applyEvents([{ type: 'job', profileId: '', job: r.job }]);
    followRender(job, r.job, r.queued);
    useUi.getState().notify({ kind: 'success', text: r.queued ? 'Retry waits in the outbox (offline).' : 'Rendering again as a new job.' });
  } catch (e) {
    fail('Could not retry', e);
  }
}

export async function duplicateJob(job: Job): Promise<void> {
  try {
    if (!(await leaveCurrentDraft())) return;
    const d = readDraft(await call('jobs.duplicate', { id: job.id }));
    useStudio.getState().loadDocument(d, d.id);
    useDrafts.getState().upsertLocal(draftSummary(d));
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
  if (action === 'delete') {
    useJobs.getState().clearSelection();
    if (!eligible.length) useUi.getState().notify({ kind: 'error', text: `No job deleted: ${skipped} still running (cancel them first).` });
    else deleteJobs(eligible, skipped ? ` ${skipped} skipped: still running (cancel them first).` : '');
    return;
  }
  const failed = await inPool(eligible, 4, (j) => cancelJob(j, false));
  useJobs.getState().clearSelection();
  const done = eligible.length - failed;
  useUi.getState().notify({
    kind: failed ? 'error' : 'success',
    text: `Canceled ${done} job${done === 1 ? '' : 's'}.${skipped ? ` ${skipped} skipped: already finished.` : ''}${failed ? ` ${failed} failed.` : ''}`,
  });
}
