// One subscription to bridge events for the whole app. Job changes arrive in bursts (progress
// of many renders); they are queued and applied in one store update per animation frame.
import type { StudioEvent } from '../../shared/bridge/index.js';
import { subscribe } from '../lib/bridge.js';
import { frameBatcher } from '../lib/frame.js';
import { useCatalogs, useDownloads, useEditor, useJobs, useSettings } from './index.js';

export function connectEvents(): () => void {
  const jobs = frameBatcher<StudioEvent>((batch) => {
    useJobs.getState().applyEvents(batch);
    // The render bar follows the job it just sent.
    const last = useEditor.getState().lastSubmit?.job;
    if (!last) return;
    for (let i = batch.length - 1; i >= 0; i--) {
      const e = batch[i]!;
      if (e.type === 'job' && e.job.id === last.id) {
        if (e.job.updatedAt >= last.updatedAt) useEditor.setState({ lastSubmit: { job: e.job, queued: null } });
        break;
      }
    }
  });
  const off = subscribe((e) => {
    switch (e.type) {
      case 'job':
      case 'job-removed':
      case 'jobs-stale':
      case 'outbox':
        jobs.push(e);
        break;
      case 'studio':
        useSettings.setState({ studio: e.status });
        break;
      case 'connection': {
        const wasOnline = useSettings.getState().online;
        useSettings.setState({ online: e.online, problem: e.online ? null : (e.problem ?? null) });
        if (e.online && !wasOnline) {
          void useJobs.getState().load();
          if (useCatalogs.getState().fromCache || useCatalogs.getState().error) void useCatalogs.getState().load();
          void useSettings.getState().loadCapabilities();
        }
        break;
      }
      case 'download':
        useDownloads.getState().progress(e);
        break;
    }
  });
  return () => {
    off();
    jobs.cancel();
  };
}
