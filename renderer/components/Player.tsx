// In-app player: the video and its captions through media URLs the privileged side serves.
import { useEffect, useRef, useState } from 'react';
import { OUTPUT_FPS, type Job } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import { offers } from '../lib/capabilities.js';
import { useSettings } from '../store/index.js';
import { downloadJob } from '../store/jobActions.js';
import { Dialog } from './Dialog.js';
import { scriptExcerpt } from '../lib/excerpt.js';
import { ErrorNote } from './ErrorNote.js';

export function Player({ job, onClose }: { job: Job; onClose(): void }) {
  const [src, setSrc] = useState<{ video: string; captions: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      try {
        const video = await call('media.url', { jobId: job.id, kind: 'video' });
        // No captions URL (a job or API without captions): the video plays without them.
        const captions = await call('media.url', { jobId: job.id, kind: 'captions' }).catch(() => null);
        if (live) setSrc({ video: video.url, captions: captions?.url ?? null });
      } catch (e) {
        if (live) setError(describeError(e));
      }
    })();
    return () => {
      live = false;
    };
  }, [job.id]);
  return (
    <Dialog title={job.title || scriptExcerpt(job.text, 60)} onClose={onClose} wide>
      <ErrorNote message={error} />
      {src && (
        <video
          ref={video}
          className="player"
          data-testid="player"
          src={src.video}
          controls
          autoPlay
          playsInline
          onError={() => setError('The video could not be played. Try downloading it instead.')}
          style={{ aspectRatio: job.output ? `${job.output.width} / ${job.output.height}` : undefined }}
        >
          {src.captions && (
            <track kind="captions" src={src.captions} srcLang="en" label={job.params.captions === 'file' ? 'Captions' : 'Captions (also burned into the video)'} />
          )}
        </video>
      )}
      {job.status === 'completed' && job.output && <ThumbnailPicker job={job} video={video} />}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => void downloadJob(job, 'video')}>
          Download video
        </button>
        {job.output?.captionsUrl !== '' && (
          <button type="button" className="btn" onClick={() => void downloadJob(job, 'captions')}>
            Download captions
          </button>
        )}
      </div>
    </Dialog>
  );
}

/**
 * The thumbnail chosen on a scrubber over the finished video: the player shows the frame, and
 * "Use this frame" has the render API cut it from the stored video (no render). Only for an API
 * that offers it (extension `output`).
 */
function ThumbnailPicker({ job, video }: { job: Job; video: React.RefObject<HTMLVideoElement | null> }) {
  const caps = useSettings((s) => s.capabilities);
  const duration = job.output!.durationSeconds;
  const last = Math.max(0, Math.floor((duration - 1 / OUTPUT_FPS) * 100) / 100);
  const [at, setAt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [thumb, setThumb] = useState<string | null>(job.output!.thumbnailUrl || null);
  if (!offers(caps, 'output')) return null;
  const seek = (t: number) => {
    setAt(t);
    const v = video.current;
    if (v) {
      v.pause();
      v.currentTime = t;
    }
  };
  const use = async () => {
    setBusy(true);
    setError(null);
    try {
      const updated = await call('jobs.thumbnail', { id: job.id, at });
      setThumb(updated.output?.thumbnailUrl || null);
    } catch (e) {
      setError(`The thumbnail was not changed: ${describeError(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="thumbnail-picker" aria-labelledby={`thumb-${job.id}`}>
      <h3 id={`thumb-${job.id}`} className="label">
        Thumbnail
      </h3>
      <div className="thumbnail-row">
        {thumb && <img className="thumbnail-current" src={thumb} alt="The video's thumbnail" data-testid="job-thumbnail" />}
        <div className="thumbnail-controls">
          <label className="field compact">
            <span className="label">Frame at {at.toFixed(2)} s</span>
            <input
              type="range"
              aria-label="Thumbnail frame (seconds)"
              min={0}
              max={last}
              step={1 / OUTPUT_FPS}
              value={at}
              onChange={(e) => seek(Number(e.target.value))}
            />
          </label>
          <button type="button" className="btn" disabled={busy} onClick={() => void use()}>
            {busy ? 'Making…' : 'Use this frame as the thumbnail'}
          </button>
        </div>
      </div>
      <ErrorNote message={error} />
    </section>
  );
}
