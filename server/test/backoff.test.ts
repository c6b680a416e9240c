// The retry pause of a background step that keeps failing (claims and lease recovery on a full
// disk): doubling to a low ceiling, so the step is tried again soon after the cause is gone,
// logged ever more rarely, and reset by a success.
import { expect, it } from 'vitest';
import { Backoff } from '../jobs/backoff.js';

it('doubles the pause to its ceiling and starts over after a success', () => {
  const b = new Backoff({ firstMs: 1000, maxMs: 8000 });
  let now = 0;
  const waits: number[] = [];
  // Ticks once a second for two minutes, as the queue's poll does, trying only when ready.
  for (; now < 120_000; now += 1000) if (b.ready(now)) waits.push(b.fail(now).retryInMs);
  expect(waits.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 8000]);
  expect(Math.max(...waits)).toBe(8000); // never longer than the ceiling, however long it fails
  expect(waits.length).toBeLessThan(20); // not one a second
  b.succeed();
  expect(b.ready(now)).toBe(true);
  expect(b.fail(now).retryInMs).toBe(1000);
});

it('keeps its default ceiling low, so a freed disk is noticed within seconds', () => {
  const b = new Backoff();
  let last = 0;
  for (let i = 0; i < 1000; i++) last = b.fail(0).retryInMs;
  expect(last).toBe(5000);
});

it('asks for a log line at the 1st, 2nd, 4th, 8th… failure in a row', () => {
  const b = new Backoff();
  const logged = Array.from({ length: 20 }, () => b.fail(0)).filter((f) => f.log).map((f) => f.failures);
  expect(logged).toEqual([1, 2, 4, 8, 16]);
});
