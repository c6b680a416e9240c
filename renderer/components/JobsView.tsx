// Jobs: status chips with counts, search, bulk actions, CSV import, the outbox, the list.
import { useEffect, useState } from 'react';
import type { Job } from '../../shared/contract/index.js';
import { isRetryable, type OutboxItem } from '../../shared/bridge/index.js';
import { JOB_STATUSES, requestText } from '../../shared/contract/index.js';
import { Icon } from './Icon.js';
import { call, describeError } from '../lib/bridge.js';
import { bulk } from '../store/jobActions.js';
import { relativeTime } from '../lib/time.js';
import { STATUS_LABEL } from '../store/jobs.js';

import { CsvImport } from './CsvImport.js';
import { ErrorNote } from './ErrorNote.js';
import { JobList } from './JobList.js';
import { scriptExcerpt } from '../lib/excerpt.js';
import { Player } from './Player.js';
import { useJobs, useUi } from '../store/index.js';

export function JobsView() {
  const counts = useJobs((s) => s.counts);
  const status = useJobs((s) => s.status);
  const q = useJobs((s) => s.q);
  const error = useJobs((s) => s.error);
  const loading = useJobs((s) => s.loading);
  const fromCache = useJobs((s) => s.fromCache);
  const count = useJobs((s) => s.jobs.length);
  const selected = useJobs((s) => s.selected);
  const [playing, setPlaying] = useState<Job | null>(null);
  const [importing, setImporting] = useState(false);
  const total = JOB_STATUSES.reduce((n, s) => n + counts[s], 0);

  useEffect(() => {
    void useJobs.getState().load();
    void useJobs.getState().loadOutbox();
  }, []);

  const allSelected = count > 0 && selected.size >= count;
  return (
    <div className="jobs">
      <div className="jobs-toolbar">
        <div className="chips" role="group" aria-label="Filter by status">
          <button type="button" className={`chip filter${status.length === 0 ? ' on' : ''}`} aria-pressed={status.length === 0} onClick={() => useJobs.getState().setStatus([])}>
            All <span className="count">{total.toLocaleString()}</span>
          </button>
          {JOB_STATUSES.map((s) => {
            const on = status.includes(s);
            return (
              <button
                key={s}
                type="button"
                className={`chip filter ${s}${on ? ' on' : ''}`}
                aria-pressed={on}
                data-testid={`chip-${s}`}
                onClick={(e) => useJobs.getState().setStatus(e.ctrlKey || e.metaKey ? (on ? status.filter((x) => x !== s) : [...status, s]) : on && status.length === 1 ? [] : [s])}
                title="Click to show only this status; Ctrl/Cmd+click to combine"
              >
                {STATUS_LABEL[s]} <span className="count">{counts[s].toLocaleString()}</span>
              </button>
            );
          })}
        </div>
        <div className="jobs-tools">
          <input type="search" className="input" placeholder="Search scripts" aria-label="Search jobs" value={q} onChange={(e) => useJobs.getState().setQuery(e.target.value)} />
          <button type="button" className="btn" onClick={() => setImporting(true)}>
            Import CSV…
          </button>
        </div>
      </div>
      <div className="bulk-bar">
        <label className="check">
          <input
            type="checkbox"
            checked={allSelected}
            ref={(el) => {
              if (el) el.indeterminate = selected.size > 0 && !allSelected;
            }}
            onChange={() => (allSelected ? useJobs.getState().clearSelection() : useJobs.getState().selectAll(useJobs.getState().jobs.map((j) => j.id)))}
            aria-label="Select all shown jobs"
          />
          {selected.size ? `${selected.size.toLocaleString()} selected` : `${count.toLocaleString()} shown`}
        </label>
        {selected.size > 0 && (
          <>
            <button type="button" className="btn small" onClick={() => void bulk('cancel')}>
              Cancel selected
            </button>
            <button type="button" className="btn small danger" onClick={() => void bulk('delete')}>
              Delete selected
            </button>
            <button type="button" className="btn small ghost" onClick={() => useJobs.getState().clearSelection()}>
              Clear
            </button>
          </>
        )}
        <span className="spacer" />
        {fromCache && <span className="chip subtle">offline — last known list</span>}
        {loading && <span className="muted small">Loading…</span>}
      </div>
      <ErrorNote message={error} onRetry={() => void useJobs.getState().load()} />
      <Outbox />
      {count === 0 && !loading && !error ? (
        <div className="empty">
          <p>{q || status.length ? 'No jobs match.' : 'No jobs yet. Write a script and press Render video.'}</p>
          {!q && !status.length && (
            <button type="button" className="btn primary" onClick={() => useUi.getState().setView('create')}>
              Create a video
            </button>
          )}
        </div>
      ) : (
        <JobList onPlay={setPlaying} />
      )}
      {playing && <Player job={playing} onClose={() => setPlaying(null)} />}
      {importing && <CsvImport onClose={() => setImporting(false)} />}
    </div>
  );
}

/** Refused by the API (a bad key, a 4xx): waits for "Send again" or new settings. */
const refused = (o: OutboxItem) => !!o.lastError && !isRetryable(o.lastError.code);

function Outbox() {
  const items = useJobs((s) => s.outbox);
  if (!items.length) return null;
  return (
    <section className="outbox" aria-label="Waiting to send">
      <h3>
        Waiting to send <span className="count">{items.length}</span>
      </h3>
      <ul>
        {items.map((o) => (
          <li key={o.id} className="outbox-row" data-testid="outbox-item">
            <span className={`chip status ${refused(o) ? 'failed' : 'waiting'}`}>{refused(o) ? 'Refused' : 'Waiting to send'}</span>
            <span className="job-text">{o.request.title ?? scriptExcerpt(requestText(o.request), 100)}</span>
            <span className="muted small">
              {relativeTime(o.createdAt)}
              {o.attempts ? ` · ${o.attempts} attempt${o.attempts === 1 ? '' : 's'}` : ''}
              {o.lastError ? ` · ${o.lastError.message}` : ''}
            </span>
            {refused(o) && (
              <button
                type="button"
                className="btn small"
                title="Send it again now (it is also sent again when this connection's settings change)"
                onClick={async () => {
                  try {
                    await call('outbox.resend', { id: o.id });
                  } catch (e) {
                    useUi.getState().notify({ kind: 'error', text: `Could not send it again: ${describeError(e)}` });
                  }
                }}
              >
                Send again
              </button>
            )}
            <button
              type="button"
              className="icon-btn"
              aria-label="Remove from the outbox"
              title="Remove (it will not be sent)"
              onClick={async () => {
                try {
                  await call('outbox.remove', { id: o.id });
                  useJobs.setState({ outbox: useJobs.getState().outbox.filter((x) => x.id !== o.id) });
                } catch (e) {
                  useUi.getState().notify({ kind: 'error', text: `Could not remove it: ${describeError(e)}` });
                }
              }}
            >
              <Icon name="close" size={14} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
