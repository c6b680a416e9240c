// @vitest-environment happy-dom
// Deleting jobs with Undo: the DELETEs wait out the notice, at most four in flight at a time.
// When the page goes (pagehide: the tab or window closes) no later task runs, so every DELETE
// not yet sent must leave in that one task: those still in their Undo window and those queued
// behind the four in flight alike.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StudioApi } from '../../shared/bridge/index.js';
import type { Job } from '../../shared/contract/index.js';
import { deleteJobs, sendPendingDeletes } from '../store/jobActions.js';
import { useJobs, useUi } from '../store/index.js';
import { makeJob } from './job-fixture.js';

/** The ids of the jobs.delete calls made so far; none is answered (a slow network). */
let deleted: string[];
beforeEach(() => {
  deleted = [];
  const api: StudioApi = {
    call: ((method: string, input: { id: string }) => {
      if (method === 'jobs.delete') deleted.push(input.id);
      return new Promise(() => {});
    }) as StudioApi['call'],
    upload: () => Promise.reject({ code: 'unsupported', message: 'no uploads here' }),
    subscribe: () => () => {},
  };
  (window as unknown as { studio: StudioApi }).studio = api;
});
afterEach(() => {
  for (const n of useUi.getState().notices) useUi.getState().dismiss(n.id, true);
  sendPendingDeletes(); // nothing from one test is left to the next
});

const jobs = (prefix: string, count: number): Job[] =>
  Array.from({ length: count }, (_, i) => makeJob(`${prefix}_${i}`, 'completed', '2026-11-23T09:00:00.000Z'));
const noticeOf = (text: string) => useUi.getState().notices.find((n) => n.text.includes(text))!;

describe('deleting jobs when the page goes', () => {
  it('sends at once every deletion still inside its Undo window', () => {
    const batch = jobs('undo', 10);
    useJobs.setState({ jobs: batch });
    deleteJobs(batch);
    expect(deleted).toEqual([]);
    sendPendingDeletes();
    expect(deleted.sort()).toEqual(batch.map((j) => j.id).sort());
  });

  it('sends at once the deletions queued behind the four in flight', () => {
    const batch = jobs('queued', 10);
    useJobs.setState({ jobs: batch });
    deleteJobs(batch);
    const notice = noticeOf('Deleted 10 jobs');
    useUi.getState().dismiss(notice.id); // the notice goes: the DELETEs start, four at a time
    expect(deleted).toHaveLength(4);
    sendPendingDeletes();
    expect(deleted.sort()).toEqual(batch.map((j) => j.id).sort());
  });

  it('sends nothing for a deletion that was undone', () => {
    const batch = jobs('undone', 3);
    useJobs.setState({ jobs: batch });
    deleteJobs(batch);
    const notice = noticeOf('Deleted 3 jobs');
    notice.action!.run();
    useUi.getState().dismiss(notice.id, true);
    sendPendingDeletes();
    expect(deleted).toEqual([]);
    expect(useJobs.getState().jobs.map((j) => j.id).sort()).toEqual(batch.map((j) => j.id).sort());
  });
});
