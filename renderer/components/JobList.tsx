// Studio-scale job list: virtualized (only visible rows exist in the DOM), pages loaded on
// demand as the end comes into view, live through bridge events.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Job } from '../../shared/contract/index.js';

import { JobRow, ROW_HEIGHT } from './JobRow.js';
import { useCatalogs, useJobs } from '../store/index.js';

export function JobList({ onPlay }: { onPlay(job: Job): void }) {
  const jobs = useJobs((s) => s.jobs);
  const selected = useJobs((s) => s.selected);
  const nextCursor = useJobs((s) => s.nextCursor);
  const loadingMore = useJobs((s) => s.loadingMore);
  const templates = useCatalogs((s) => s.templates);
  const names = useMemo(() => new Map(templates.map((t) => [t.id, t.name])), [templates]);
  const scroller = useRef<HTMLDivElement>(null);
  const lastClicked = useRef<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  const virtualizer = useVirtualizer({
    count: jobs.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => jobs[i]?.id ?? i,
    // Let React batch scroll updates with the frame instead of a synchronous render per event.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1]!.index : 0;
  useEffect(() => {
    if (nextCursor && !loadingMore && lastIndex >= jobs.length - 20) void useJobs.getState().loadMore();
  }, [lastIndex, jobs.length, nextCursor, loadingMore]);

  const onToggle = useCallback((id: string, shift: boolean) => {
    const s = useJobs.getState();
    if (shift && lastClicked.current) {
      const a = s.jobs.findIndex((j) => j.id === lastClicked.current);
      const b = s.jobs.findIndex((j) => j.id === id);
      if (a >= 0 && b >= 0) {
        const range = s.jobs.slice(Math.min(a, b), Math.max(a, b) + 1).map((j) => j.id);
        s.selectAll([...new Set([...s.selected, ...range])]);
        lastClicked.current = id;
        return;
      }
    }
    lastClicked.current = id;
    s.toggleSelected(id);
  }, []);

  return (
    <div className="job-scroller" ref={scroller} role="grid" aria-label="Jobs" aria-rowcount={jobs.length} data-testid="job-list">
      <div className="job-rows" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => {
          const job = jobs[v.index]!;
          return (
            <div key={v.key} className="job-slot" style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}>
              <JobRow job={job} templateName={names.get(job.templateId) ?? job.templateId} selected={selected.has(job.id)} now={now} onToggle={onToggle} onPlay={onPlay} />
            </div>
          );
        })}
      </div>
      {loadingMore && <div className="muted small pad center">Loading more…</div>}
    </div>
  );
}
