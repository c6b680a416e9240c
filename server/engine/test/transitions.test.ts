// Transitions over two segments: the leaving scene's last frame and the entering scene's frames,
// mixed only for TRANSITION_SECONDS at the entering scene's start.
import { describe, expect, it } from 'vitest';
import { OUTPUT_FPS, TRANSITION_SECONDS } from '../../../shared/contract/index.js';
import { FramePool, type FrameSource } from '../frames/scene-frames.js';
import { framePlanes, yuvFrameSize } from '../frames/sprites.js';
import { transitionSource } from '../frames/transitions.js';

const W = 64;
const H = 16;
/** A frame whose luma is `y` (chroma neutral). */
function flat(y: number): Buffer {
  const b = Buffer.alloc(yuvFrameSize(W, H), 128);
  b.fill(y, 0, W * H);
  return b;
}
const entering = (b: Buffer): FrameSource<Buffer> => ({ frame: () => b, prime: () => undefined, artDone: () => undefined });
const at = (s: FrameSource, t: number) => s.frame(t) as Buffer;

describe('a transition', () => {
  const from = flat(40);
  const to = flat(200);

  it('fades from the leaving frame to the entering one, then gives the entering frames as they are', () => {
    const fade = transitionSource('fade', from, entering(to), new FramePool(), W, H);
    const first = at(fade, 0)[0]!;
    const middle = at(fade, TRANSITION_SECONDS / 2)[0]!;
    const last = at(fade, TRANSITION_SECONDS - 1 / OUTPUT_FPS)[0]!;
    expect(first).toBeGreaterThan(40);
    expect(first).toBeLessThan(60);
    expect(Math.abs(middle - 120)).toBeLessThan(10);
    expect(last).toBeGreaterThan(180);
    expect(at(fade, TRANSITION_SECONDS)).toBe(to);
  });

  it('slides the entering frame in from the right, pushing the leaving one out', () => {
    const slide = transitionSource('slide', from, entering(to), new FramePool(), W, H);
    const y = framePlanes(at(slide, TRANSITION_SECONDS / 2), W, H).y;
    const row = Array.from(y.subarray(W * 3, W * 4));
    const edge = row.indexOf(200);
    expect(edge).toBeGreaterThan(W / 4);
    expect(edge).toBeLessThan((3 * W) / 4);
    expect(row.slice(0, edge).every((v) => v === 40)).toBe(true);
    expect(row.slice(edge).every((v) => v === 200)).toBe(true);
  });

  it('is the entering frames themselves for a cut', () => {
    const source = entering(to);
    expect(transitionSource('cut', from, source, new FramePool(), W, H)).toBe(source);
  });
});
