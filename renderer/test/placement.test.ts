// Presenter placement maths behind the canvas: ranges, snapping, nudging, corner and wheel scaling.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Avatar } from '../../shared/contract/index.js';
import { clampAvatar, nudge, scaleFromCorner, snapCentre, wheelScale } from '../lib/placement.js';

describe('placement', () => {
  it('always yields a placement the contract accepts', () => {
    fc.assert(
      fc.property(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), (scale, x, y) => {
        expect(Avatar.safeParse(clampAvatar({ scale, x, y })).success).toBe(true);
      }),
    );
  });

  it('snaps the centre to centre lines and thirds only within the threshold', () => {
    const near = snapCentre(0.505, 0.34, 1000, 500, 8);
    expect(near).toMatchObject({ x: 0.5, y: 1 / 3, guidesX: [0.5], guidesY: [1 / 3] });
    const far = snapCentre(0.52, 0.4, 1000, 500, 8);
    expect(far).toEqual({ x: 0.52, y: 0.4, guidesX: [], guidesY: [] });
  });

  it('nudges by 0.005, or 0.05 with Shift, and stops at the frame edge', () => {
    const a = { scale: 0.6, x: 0.5, y: 0.5 };
    expect(nudge(a, 'ArrowRight', false).x).toBe(0.505);
    expect(nudge(a, 'ArrowUp', true).y).toBe(0.45);
    expect(nudge({ ...a, x: 0.99 }, 'ArrowRight', true).x).toBe(1);
  });

  it('corner drag puts the grabbed corner under the pointer', () => {
    const frame = { width: 1280, height: 720 };
    const corner = { fx: 0.4, fy: 0.5 }; // bottom-right corner per unit of scale, in frame heights
    const a = { scale: 0.5, x: 0.5, y: 0.5 };
    const pointer = { x: 640 + 0.4 * 0.8 * 720, y: 360 + 0.5 * 0.8 * 720 };
    expect(scaleFromCorner(a, pointer, frame, corner).scale).toBeCloseTo(0.8, 3);
    expect(scaleFromCorner(a, { x: 5000, y: 5000 }, frame, corner).scale).toBe(1.5);
    expect(scaleFromCorner(a, { x: 640, y: 360 }, frame, corner).scale).toBe(0.1);
  });

  it('wheel up grows, wheel down shrinks, within range', () => {
    const a = { scale: 0.6, x: 0.5, y: 0.5 };
    expect(wheelScale(a, -100).scale).toBeGreaterThan(0.6);
    expect(wheelScale(a, 100).scale).toBeLessThan(0.6);
    expect(wheelScale(a, -100000).scale).toBe(1.5);
  });
});
