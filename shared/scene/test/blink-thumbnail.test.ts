// The default thumbnail never shows a half-closed blink: a time inside a blink moves to the
// frame before it starts; any other time stays as it is.
import { describe, expect, it } from 'vitest';
import { blinkTimes, eyesOpenNear, lidAt } from '../index.js';

describe('eyesOpenNear', () => {
  const blinks = blinkTimes(60);
  const frame = 1 / 30;

  it('moves every frame time inside a blink to one where the eyes are open, within a blink\'s length', () => {
    let moved = 0;
    for (let f = 0; f < 60 * 30; f++) {
      const t = f * frame;
      const at = eyesOpenNear(blinks, t, frame);
      expect(lidAt(blinks, at)).toBe(0);
      expect(t - at).toBeLessThan(0.22); // a blink's length and a frame
      if (at !== t) moved++;
    }
    expect(moved).toBeGreaterThan(10); // there were blinks to avoid
  });

  it('keeps a time with the eyes open', () => {
    expect(eyesOpenNear(blinks, 0.5, frame)).toBe(0.5);
    const between = blinks[0]! + 0.5;
    expect(lidAt(blinks, between)).toBe(0);
    expect(eyesOpenNear(blinks, between, frame)).toBe(between);
  });
});
