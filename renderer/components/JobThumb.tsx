// A small still of a finished job (the studio's thumbnail.jpg through the bridge's media URL);
// other jobs show a tinted frame of their aspect ratio. URLs are cached per job.
import { memo, useEffect, useState } from 'react';
import type { Job } from '../../shared/contract/index.js';
import { call } from '../lib/bridge.js';

const urls = new Map<string, Promise<string | null>>();
function thumbnailUrl(jobId: string): Promise<string | null> {
  let p = urls.get(jobId);
  if (!p) {
    p = call('media.url', { jobId, kind: 'thumbnail' }).then(
      (r) => r.url,
      () => null,
    );
    urls.set(jobId, p);
  }
  return p;
}

export const JobThumb = memo(function JobThumb({ job }: { job: Job }) {
  const done = job.status === 'completed';
  const [src, setSrc] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    if (!done) return;
    let live = true;
    // The job's own URL changes when its thumbnail is made again (a new version); media.url is the fallback.
    const own = job.output?.thumbnailUrl;
    if (own) setSrc(own);
    else void thumbnailUrl(job.id).then((u) => live && setSrc(u));
    setBroken(false);
    return () => {
      live = false;
    };
  }, [done, job.id, job.output?.thumbnailUrl]);
  const [w, h] = job.params.aspectRatio.split(':').map(Number) as [number, number];
  return (
    <span className={`job-thumb ${job.status}`} aria-hidden="true">
      <span className="job-thumb-frame" style={{ aspectRatio: `${w} / ${h}` }}>
        {done && src && !broken && <img src={src} alt="" loading="lazy" decoding="async" onError={() => setBroken(true)} />}
      </span>
    </span>
  );
});
