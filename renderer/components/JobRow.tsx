// One job in the list: selection, text, template/voice/aspect, status chip with progress,
// relative time, and the actions that fit its status.
import { memo } from 'react';
import { isTerminal, type Job } from '../../shared/contract/index.js';
import { cancelJob, deleteJob, downloadJob, duplicateJob, retryJob } from '../store/jobActions.js';
import { plainError } from '../lib/plain-error.js';
import { formatDuration } from '../lib/speech.js';
import { relativeTime } from '../lib/time.js';
import { STATUS_LABEL } from '../store/jobs.js';
import { Icon } from './Icon.js';
import { scriptExcerpt } from '../lib/excerpt.js';
import { JobThumb } from './JobThumb.js';
import { offers } from '../lib/capabilities.js';
import { useSettings } from '../store/index.js';

export const ROW_HEIGHT = 64;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const fullTime = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : dateFormat.format(t);
};

interface Props {
  job: Job;
  templateName: string;
  selected: boolean;
  now: number;
  onToggle(id: string, shift: boolean): void;
  onPlay(job: Job): void;
}

export const JobRow = memo(function JobRow({ job, templateName, selected, now, onToggle, onPlay }: Props) {
  const pct = Math.round(job.progress * 100);
  const excerpt = scriptExcerpt(job.text, 140);
  // The draft's name where the job has one (title extension), else the script's first words.
  const title = job.title || excerpt;
  const done = job.status === 'completed';
  // SRT beside the WebVTT file: an API with the `sound` extension serves it.
  const srt = useSettings((s) => offers(s.capabilities, 'sound'));
  return (
    <div className={`job-row status-${job.status}${selected ? ' selected' : ''}`} data-job-id={job.id} data-status={job.status} role="row" aria-selected={selected}>
      <span role="gridcell" className="cell-check">
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select “${title.slice(0, 40)}”`}
          onChange={(e) => onToggle(job.id, (e.nativeEvent as MouseEvent).shiftKey)}
        />
      </span>
      <JobThumb job={job} />
      <span role="gridcell" className="cell-main">
        <span className="job-text" title={job.text} data-testid="job-title">
          {title || <em className="muted">(empty)</em>}
          {job.title && excerpt ? <span className="job-excerpt muted"> — {excerpt}</span> : null}
        </span>
        <span className="job-meta muted small">
          {templateName} · {job.voiceId} · {job.params.aspectRatio}
          {done && job.output ? ` · ${formatDuration(job.output.durationSeconds)}` : ''}
          {job.status === 'failed' && job.error ? <span className="job-error"> · {plainError(job.error.message)}</span> : null}
        </span>
      </span>
      <span role="gridcell" className="cell-status">
        <span className={`chip status ${job.status}`} data-testid="job-status">
          {STATUS_LABEL[job.status]}
          {job.status === 'rendering' ? ` ${pct}%` : ''}
        </span>
        {job.status === 'rendering' && (
          <span className="progress" role="progressbar" aria-label="Render progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
            <span style={{ transform: `scaleX(${job.progress})` }} />
          </span>
        )}
      </span>
      <span role="gridcell" className="cell-time muted small" title={fullTime(job.createdAt)}>
        {relativeTime(job.createdAt, now)}
      </span>
      <span role="gridcell" className="cell-actions">
        {done && (
          <>
            <button type="button" className="icon-btn" aria-label="Play" title="Play" onClick={() => onPlay(job)}>
              <Icon name="play" />
            </button>
            <button type="button" className="icon-btn" aria-label="Download video" title="Download video" onClick={() => void downloadJob(job, 'video')}>
              <Icon name="download" />
            </button>
            {/* A job rendered without captions ("none") has no caption file. */}
            {job.output?.captionsUrl !== '' && (
              <button type="button" className="icon-btn text" aria-label="Download captions" title="Download captions (WebVTT)" onClick={() => void downloadJob(job, 'captions')}>
                CC
              </button>
            )}
            {srt && job.output?.captionsUrl !== '' && (
              <button type="button" className="icon-btn text" aria-label="Download captions as SRT" title="Download captions (SRT)" onClick={() => void downloadJob(job, 'srt')}>
                SRT
              </button>
            )}
          </>
        )}
        {!isTerminal(job.status) && (
          <button type="button" className="icon-btn" aria-label="Cancel job" title="Cancel" onClick={() => void cancelJob(job)}>
            <Icon name="cancel" />
          </button>
        )}
        {(job.status === 'failed' || job.status === 'canceled') && (
          <button type="button" className="icon-btn" aria-label="Retry job" title="Retry" onClick={() => void retryJob(job)}>
            <Icon name="retry" />
          </button>
        )}
        <button type="button" className="icon-btn" aria-label="Duplicate into the editor" title="Duplicate into the editor" onClick={() => void duplicateJob(job)}>
          <Icon name="duplicate" />
        </button>
        {isTerminal(job.status) && (
          <button type="button" className="icon-btn danger" aria-label="Delete job" title="Delete" onClick={() => void deleteJob(job)}>
            <Icon name="trash" />
          </button>
        )}
      </span>
    </div>
  );
});
