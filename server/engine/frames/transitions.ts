// A transition is a frame source over two segments: the leaving scene's last frame and the
// entering scene's own frames (its local time runs from its start), mixed for
// TRANSITION_SECONDS at the start of the entering scene. A new kind is one mix below.
import { OUTPUT_FPS, TRANSITION_SECONDS, type Transition } from '../../../shared/contract/index.js';
import type { FramePool, FrameSource } from './scene-frames.js';
import { framePlanes, type Target } from './sprites.js';

type Mix = (out: Target, from: Target, to: Target, p: number) => void;

/** The planes of a frame, each with its width (luma, then the two chroma planes at half size). */
const planes = (t: Target): [Uint8Array, number][] => [[t.y, t.width], [t.u, t.width >> 1], [t.v, t.width >> 1]];

/** A cross-fade. */
const fade: Mix = (out, from, to, p) => {
  const a = Math.round(p * 256) | 0;
  const b = (256 - a) | 0;
  const src = planes(from);
  const dst = planes(to);
  planes(out).forEach(([o], k) => {
    const f = src[k]![0];
    const d = dst[k]![0];
    for (let i = 0; i < o.length; i++) o[i] = (f[i]! * b + d[i]! * a + 128) >> 8;
  });
};

/** The entering scene pushes the leaving one out to the left, eased in and out. */
const slide: Mix = (out, from, to, p) => {
  const e = p * p * (3 - 2 * p);
  const W = out.width;
  const offset = Math.round((W * (1 - e)) / 2) * 2; // even: chroma moves by whole samples
  const src = planes(from);
  const dst = planes(to);
  planes(out).forEach(([o, w], k) => {
    const f = src[k]![0];
    const d = dst[k]![0];
    const at = (offset * w) / W;
    for (let row = 0; row < o.length; row += w) {
      o.set(f.subarray(row + w - at, row + w), row);
      o.set(d.subarray(row, row + w - at), row + at);
    }
  });
};

const MIXES: Record<Exclude<Transition, 'cut'>, Mix> = { fade, slide };

/**
 * The entering scene's frames, mixed over its first TRANSITION_SECONDS with `from` (the leaving
 * scene's last frame); a cut is the entering scene's frames as they are.
 */
export function transitionSource(kind: Transition, from: Buffer, entering: FrameSource, pool: FramePool, width: number, height: number): FrameSource {
  if (kind === 'cut') return entering;
  const mix = MIXES[kind];
  const steps = TRANSITION_SECONDS * OUTPUT_FPS;
  let shown: Buffer | null = null;
  const mixed = (t: number, to: Buffer): Buffer => {
    const { buf } = pool.take(to.length);
    pool.hold(buf);
    mix(framePlanes(buf, width, height), framePlanes(from, width, height), framePlanes(to, width, height), Math.min(1, (t * OUTPUT_FPS + 1) / (steps + 1)));
    if (shown) pool.release(shown);
    shown = buf;
    return buf;
  };
  return {
    frame(t) {
      const to = entering.frame(t);
      if (t >= TRANSITION_SECONDS) {
        if (shown) pool.release(shown);
        shown = null;
        return to;
      }
      return to instanceof Promise ? to.then((b) => mixed(t, b)) : mixed(t, to);
    },
    prime: () => entering.prime(),
    artDone: () => entering.artDone(),
  };
}
