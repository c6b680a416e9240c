// Presenter placement maths for the canvas: clamping to the contract's ranges, snapping the
// presenter centre to centre lines and thirds, nudging and scaling. Pure, so it is unit-tested.
import { AVATAR_RANGES, type Avatar } from '../../shared/contract/index.js';

const clampTo = (v: number, r: { min: number; max: number }) => Math.min(r.max, Math.max(r.min, v));
/** Three decimals: what the fields show is exactly what is sent. */
const round3 = (v: number) => Math.round(v * 1000) / 1000;

export function clampAvatar(a: Avatar): Avatar {
  return {
    scale: round3(clampTo(a.scale, AVATAR_RANGES.scale)),
    x: round3(clampTo(a.x, AVATAR_RANGES.x)),
    y: round3(clampTo(a.y, AVATAR_RANGES.y)),
  };
}

export const SNAP_LINES = [1 / 3, 1 / 2, 2 / 3] as const;

export interface SnapResult {
  x: number;
  y: number;
  /** Guides to draw: fractions of width (vertical lines) and of height (horizontal lines). */
  guidesX: number[];
  guidesY: number[];
}

/**
 * Snaps a centre (fractions of the frame) to the nearest centre line or third within
 * `thresholdPx` of the on-screen frame size.
 */
export function snapCentre(x: number, y: number, widthPx: number, heightPx: number, thresholdPx = 8): SnapResult {
  const pick = (v: number, sizePx: number) => {
    let best: number | null = null;
    let bestDist = thresholdPx / sizePx;
    for (const line of SNAP_LINES) {
      const d = Math.abs(v - line);
      if (d <= bestDist) {
        best = line;
        bestDist = d;
      }
    }
    return best;
  };
  const sx = pick(x, widthPx);
  const sy = pick(y, heightPx);
  return { x: sx ?? x, y: sy ?? y, guidesX: sx === null ? [] : [sx], guidesY: sy === null ? [] : [sy] };
}

export type NudgeKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';
export const NUDGE_STEP = 0.005;

export function nudge(a: Avatar, key: NudgeKey, big: boolean): Avatar {
  const step = NUDGE_STEP * (big ? 10 : 1);
  const dx = key === 'ArrowLeft' ? -step : key === 'ArrowRight' ? step : 0;
  const dy = key === 'ArrowUp' ? -step : key === 'ArrowDown' ? step : 0;
  return clampAvatar({ ...a, x: a.x + dx, y: a.y + dy });
}

/** Wheel zoom: multiplicative so it feels the same at every size. */
export function wheelScale(a: Avatar, deltaY: number): Avatar {
  return clampAvatar({ ...a, scale: a.scale * Math.exp(-deltaY * 0.0015) });
}

/** A corner of the presenter's painted box relative to its centre, per unit of scale, in frame heights. */
export interface CornerOffset {
  fx: number;
  fy: number;
}

/**
 * Corner-handle scaling with the centre held: the scale that puts the grabbed corner under
 * the pointer (the larger of the horizontal and vertical answers, so the box never shrinks
 * away from the pointer).
 */
export function scaleFromCorner(a: Avatar, pointer: { x: number; y: number }, frame: { width: number; height: number }, corner: CornerOffset): Avatar {
  const cx = a.x * frame.width;
  const cy = a.y * frame.height;
  const sx = corner.fx !== 0 ? (pointer.x - cx) / (corner.fx * frame.height) : 0;
  const sy = corner.fy !== 0 ? (pointer.y - cy) / (corner.fy * frame.height) : 0;
  return clampAvatar({ ...a, scale: Math.max(sx, sy) });
}

export function sameAvatar(a: Avatar, b: Avatar): boolean {
  return a.x === b.x && a.y === b.y && a.scale === b.scale;
}
