// In-app player: the video and its captions through media URLs the privileged side serves.
import { useEffect, useState } from 'react';
import type { Job } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import { downloadJob } from '../store/jobActions.js';
import { Dialog } from './Dialog.js';
import { scriptExcerpt } from '../lib/excerpt.js';
import { ErrorNote } from './ErrorNote.js';

export function Player({ job, onClose }: { job: Job; onClose(): void }) {
  const [src, setSrc] = useState<{ video: string; captions: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
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
          className="player"
          data-testid="player"
          src={src.video}
          controls
          autoPlay
          playsInline
          onError={() => setError('The video could not be played. Try downloading it instead.')}
          style={{ aspectRatio: job.output ? `${job.output.width} / ${job.output.height}` : undefined }}
        >
          {src.captions && <track kind="captions" src={src.captions} srcLang="en" label="Captions (also burned into the video)" />}
        </video>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => void downloadJob(job, 'video')}>
          Download video
        </button>
        <button type="button" className="btn" onClick={() => void downloadJob(job, 'captions')}>
          Download captions
        </button>
      </div>
    </Dialog>
  );
}
