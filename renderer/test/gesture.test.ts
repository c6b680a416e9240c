// The presenter canvas's gestures (renderer/canvas/gesture.ts): pointer, wheel and key events
// in, placement out, hit-tested on shared/scene's layout of the very frame the video renders.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Avatar, outputSize, type RenderParams } from '../../shared/contract/index.js';
import { computeLayout } from '../../shared/scene/index.js';
import { HANDLE_PX, hoverCursor, reduceGesture, type GestureEvent, type GestureOutput, type GestureState, type GestureView } from '../canvas/gesture.js';

const START = { scale: 0.5, x: 0.5, y: 0.5 };
/** A 16:9 canvas shown at half the output size: 1 CSS px = 2 frame px. */
function view(avatar = START, committed = avatar): GestureView {
  return { templateId: 'newsroom', params: { aspectRatio: '16:9', avatar }, committed, width: 640, height: 360 };
}
/** The presenter's painted box on screen, CSS px. */
function box(params: RenderParams = view().params) {
  const f = outputSize(params.aspectRatio);
  const b = computeLayout('newsroom', params, f).presenterBounds;
  const k = 640 / f.width;
  return { left: b.x * k, top: b.y * k, right: (b.x + b.width) * k, bottom: (b.y + b.height) * k };
}

/** Runs events through the reducer as the canvas does: the live placement is what the next event sees. */
function run(events: GestureEvent[], from = view()) {
  let state: GestureState = null;
  let avatar = from.params.avatar;
  let committed = from.committed;
  const outs: GestureOutput[] = [];
  for (const e of events) {
    const out = reduceGesture(state, e, { ...from, params: { ...from.params, avatar }, committed });
    state = out.state;
    if (out.live) avatar = out.live.avatar;
    if (out.commit) avatar = committed = out.commit;
    if (out.commitLive) committed = avatar;
    if (out.dropLive) avatar = committed;
    outs.push(out);
  }
  return { state, avatar, committed, outs, last: outs[outs.length - 1]! };
}
const down = (x: number, y: number, pointerId = 1, button = 0): GestureEvent => ({ type: 'pointerdown', pointerId, button, x, y });
const move = (x: number, y: number, pointerId = 1, altKey = false): GestureEvent => ({ type: 'pointermove', pointerId, x, y, altKey });
const up = (pointerId = 1): GestureEvent => ({ type: 'pointerup', pointerId });
const key = (k: string, shiftKey = false): GestureEvent => ({ type: 'key', key: k, shiftKey });

describe('presenter canvas gestures', () => {
  const b = box();
  const mid = { x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 };

  it('shows what a pointer would grab: the body, a corner handle, or nothing', () => {
    expect(hoverCursor(view(), mid.x, mid.y)).toBe('grab');
    expect(hoverCursor(view(), b.right + HANDLE_PX - 1, b.bottom)).toBe('nwse-resize');
    expect(hoverCursor(view(), b.left, b.top - HANDLE_PX + 1)).toBe('nwse-resize');
    expect(hoverCursor(view(), b.right, b.top)).toBe('nesw-resize');
    expect(hoverCursor(view(), b.left - HANDLE_PX - 2, mid.y)).toBe('default');
    expect(run([move(5, 5)]).last).toMatchObject({ state: null, cursor: 'default', handled: false });
  });

  it('drags the presenter by the grabbed point, shows it live and commits on release', () => {
    const r = run([down(mid.x - 20, mid.y + 10), move(mid.x - 20 + 64, mid.y + 10 + 18)]);
    expect(r.outs[0]).toMatchObject({ handled: true, focus: true, capture: 1 });
    expect(r.state).toMatchObject({ kind: 'move', pointerId: 1 });
    // 64 CSS px of 640 = 0.1 of the width; 18 of 360 = 0.05 of the height; no snap line near.
    expect(r.avatar).toEqual({ scale: 0.5, x: 0.6, y: 0.55 });
    expect(r.committed).toEqual(START);
    expect(r.last.cursor).toBe('grabbing');
    const done = run([down(mid.x, mid.y), move(mid.x + 64, mid.y + 18), up()]);
    expect(done.last).toMatchObject({ state: null, commitLive: true });
    expect(done.committed).toEqual({ scale: 0.5, x: 0.6, y: 0.55 });
  });

  it('snaps the centre to thirds with a guide, and Alt turns snapping off', () => {
    const third = 640 / 3;
    const snapped = run([down(mid.x, mid.y), move(third + 3, mid.y)]);
    expect(snapped.avatar.x).toBe(0.333);
    expect(snapped.last.live).toMatchObject({ guidesX: [1 / 3], guidesY: [0.5] });
    const free = run([down(mid.x, mid.y), move(third + 3, mid.y + 2, 1, true)]);
    expect(free.avatar.x).toBeCloseTo((third + 3) / 640, 3);
    expect(free.last.live).toMatchObject({ guidesX: [], guidesY: [] });
  });

  it('resizes by a corner handle around the centre, the corner following the pointer', () => {
    const r = run([down(b.right, b.top), move(b.right + 30, b.top - 40)]);
    expect(r.state).toMatchObject({ kind: 'scale' });
    expect(r.avatar.x).toBe(0.5);
    expect(r.avatar.y).toBe(0.5);
    expect(r.avatar.scale).toBeGreaterThan(0.5);
    const grown = box({ aspectRatio: '16:9', avatar: r.avatar });
    // The larger of the two answers wins, so the corner reaches the pointer on one axis and passes it on the other.
    expect(Math.max(grown.right - (b.right + 30), (b.top - 40) - grown.top)).toBeGreaterThanOrEqual(-0.5);
    expect(Math.min(Math.abs(grown.right - (b.right + 30)), Math.abs(grown.top - (b.top - 40)))).toBeLessThan(0.5);
    const shrunk = run([down(b.left, b.bottom), move(mid.x - 10, mid.y + 10)]);
    expect(shrunk.avatar.scale).toBeLessThan(0.5);
  });

  it('keeps every placement inside the contract’s ranges, however far the pointer goes', () => {
    const far = run([down(mid.x, mid.y), move(5000, -5000)]);
    expect(far.avatar).toMatchObject({ x: 1, y: 0 });
    const huge = run([down(b.right, b.bottom), move(99999, 99999)]);
    expect(huge.avatar.scale).toBe(1.5);
    const tiny = run([down(b.right, b.bottom), move(mid.x, mid.y)]);
    expect(tiny.avatar.scale).toBe(0.1);
    fc.assert(
      fc.property(fc.double({ min: -1e5, max: 1e5, noNaN: true }), fc.double({ min: -1e5, max: 1e5, noNaN: true }), fc.boolean(), (x, y, corner) => {
        const r = run(corner ? [down(b.left, b.top), move(x, y)] : [down(mid.x, mid.y), move(x, y)]);
        expect(Avatar.safeParse(r.avatar).success).toBe(true);
      }),
    );
  });

  it('nudges with the arrow keys and resizes with + and −, committing at once and clamped', () => {
    expect(run([key('ArrowRight')]).committed).toEqual({ ...START, x: 0.505 });
    expect(run([key('ArrowUp', true)]).committed).toEqual({ ...START, y: 0.45 });
    expect(run([key('+')]).committed).toEqual({ ...START, scale: 0.52 });
    expect(run([key('-', true)]).committed).toEqual({ ...START, scale: 0.4 });
    expect(run([key('ArrowLeft', true)], view({ ...START, x: 0.02 })).committed.x).toBe(0);
    expect(run([key('=', true)], view({ ...START, scale: 1.45 })).committed.scale).toBe(1.5);
    expect(run([key('a')]).last).toMatchObject({ handled: false });
    expect(run([key('a')]).last.commit).toBeUndefined();
  });

  it('scales with the wheel, live, and commits after a pause', () => {
    const r = run([{ type: 'wheel', deltaY: -100 }]);
    expect(r.last).toMatchObject({ handled: true, commitLiveLater: true });
    expect(r.avatar.scale).toBeGreaterThan(0.5);
    expect(r.committed).toEqual(START);
  });

  it('a cancelled pointer or lost capture puts the presenter back where it was', () => {
    const cancelled = run([down(mid.x, mid.y), move(mid.x + 100, mid.y + 50), { type: 'pointercancel', pointerId: 1 }]);
    expect(cancelled.last).toMatchObject({ state: null, dropLive: true });
    expect(cancelled.last.commit).toBeUndefined();
    expect(cancelled.avatar).toEqual(START);
    // A drag that began on a wheel placement not yet committed goes back to that placement.
    const wheeled = { ...START, scale: 0.55 };
    const r = run([down(mid.x, mid.y), move(0, 0), { type: 'pointercancel', pointerId: 1 }], view(wheeled, START));
    expect(r.last.commit).toEqual(wheeled);
    // After a release the gesture is over: the capture's loss then changes nothing.
    const released = run([down(mid.x, mid.y), move(mid.x + 64, mid.y), up(), { type: 'pointercancel', pointerId: 1 }]);
    expect(released.last).toMatchObject({ handled: false });
    expect(released.committed.x).toBe(0.6);
  });

  it('ignores other buttons, other pointers and presses beside the presenter', () => {
    expect(run([down(mid.x, mid.y, 1, 2)]).last).toMatchObject({ state: null, handled: false });
    const beside = run([down(5, 5)]).last;
    expect(beside).toMatchObject({ state: null, handled: false, focus: true });
    const other = run([down(mid.x, mid.y, 1), move(mid.x + 100, mid.y, 2), up(2)]);
    expect(other.state).toMatchObject({ pointerId: 1 });
    expect(other.avatar).toEqual(START);
  });
});
