// A look-ahead peak limiter for a stream of interleaved frames: the same curve as the
// narration's (speech/loudness.ts applyGain: the gain set at 32-frame block edges, no higher
// than the two blocks on each side allow, straight lines between, ~50 ms release), kept going
// across the pieces of a stream by holding back its last two blocks until more arrive.
import { LIMITER_BLOCK } from '../speech/loudness.js';

export class StreamLimiter {
  private pending = new Float32Array(0);
  /** What the two blocks before `pending` allow. */
  private before: [number, number] = [1, 1];
  /** The gain at the edge where `pending` starts. */
  private edge = 1;
  private readonly ceiling: number;
  private readonly release: number;

  constructor(private readonly channels: number, rate: number, ceilingDb: number) {
    this.ceiling = 32767 * 10 ** (ceilingDb / 20);
    this.release = LIMITER_BLOCK / rate / 0.05;
  }

  /**
   * Limits `samples` (any level), first scaled by a gain running in a straight line from `from` to
   * `to` across them (the mix's master gain: one pass for both), and returns what can go out now:
   * everything when `final`.
   */
  push(samples: Float32Array, final: boolean, from = 1, to = 1): Int16Array {
    const channels = this.channels;
    const held = this.pending.length;
    const all = new Float32Array(held + samples.length);
    all.set(this.pending);
    if (from === 1 && to === 1) all.set(samples, held);
    else {
      const frames = samples.length / channels;
      const step = (to - from) / Math.max(1, frames);
      for (let f = 0, i = 0; f < frames; f++) {
        const g = from + step * f;
        for (let c = 0; c < channels; c++, i++) all[held + i] = samples[i]! * g;
      }
    }
    const block = LIMITER_BLOCK * channels;
    const blocks = Math.ceil(all.length / block);
    const allowed = new Float32Array(blocks);
    const ceiling = this.ceiling;
    for (let b = 0; b < blocks; b++) {
      let peak = 0;
      const end = Math.min(all.length, (b + 1) * block);
      for (let i = b * block; i < end; i++) {
        const v = all[i]!;
        if (v > peak) peak = v;
        else if (-v > peak) peak = -v;
      }
      allowed[b] = peak > ceiling ? ceiling / peak : 1;
    }
    // Whole blocks go out, keeping two behind for the edges they decide (all of it at the end).
    const outBlocks = final ? blocks : Math.max(0, Math.floor(all.length / block) - 2);
    const at = (b: number) => (b < 0 ? this.before[b + 2]! : b < blocks ? allowed[b]! : 1);
    const out = new Int16Array(Math.min(all.length, outBlocks * block));
    // (The stream's first edge: no block before it set it.)
    let edge = Math.min(this.edge, at(-1), at(0));
    for (let b = 0; b < outBlocks; b++) {
      // The edge after block b: the least of blocks b - 1 .. b + 2, risen at most `release` from the one before.
      const next = Math.min(at(b - 1), at(b), at(b + 1), at(b + 2), edge + this.release);
      const start = b * block;
      const end = Math.min(all.length, start + block);
      const slope = (next - edge) / LIMITER_BLOCK;
      for (let i = start, frame = 0; i < end; frame++) {
        const g = edge + slope * frame;
        for (let c = 0; c < channels; c++, i++) {
          const v = all[i]! * g;
          out[i] = v < 0 ? (v <= -32768.5 ? -32768 : (v - 0.5) | 0) : v >= 32766.5 ? 32767 : (v + 0.5) | 0;
        }
      }
      edge = next;
    }
    this.edge = edge;
    this.before = [at(outBlocks - 2), at(outBlocks - 1)];
    this.pending = all.slice(out.length);
    return out;
  }
}
