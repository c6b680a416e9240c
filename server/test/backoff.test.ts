// The retry pause of a background step that keeps failing (claims and lease recovery on a full
// disk): doubling to a ceiling, so its log line comes ever more rarely, and reset by a success.
import { expect, it } from 'vitest';
import { Backoff } from '../jobs/backoff.js';

it('doubles the pause to its ceiling and starts over after a success', () => {
  const b = new Backoff(1000, 8000);
  let now = 0;
  const waits: number[] = [];
  // Ticks once a second for two minutes, as the queue's poll does, trying only when ready.
  for (; now < 120_000; now += 1000) if (b.ready(now)) waits.push(b.fail(now).retryInMs);
  expect(waits.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 8000]);
  expect(waits.length).toBeLessThan(20); // not one a second
  b.succeed();
  expect(b.ready(now)).toBe(true);
  expect(b.fail(now).retryInMs).toBe(1000);
});
