// A look-ahead peak limiter for a stream of interleaved stereo frames: the same curve as the
// narration's (speech/loudness.ts applyGain: the gain set at 32-frame block edges, no higher
// than the two blocks on each side allow, straight lines between, ~50 ms release), kept going
// across the pieces of a stream by holding back its last two blocks until more arrive.
//
// Each pass over the samples is a function of its own with nothing after its loop: V8 optimises
// a long loop while it runs (on-stack replacement), and code past it that had not run by then
// sent the optimised loop back to the interpreter at every piece.
import { LIMITER_BLOCK } from '../speech/loudness.js';

/** Samples per block (stereo). */
const BLOCK = 2 * LIMITER_BLOCK;

export class StreamLimiter {
  /** The samples not sent yet, from index 0: the held-back blocks of the last piece, then the new piece. */
  private buf = new Float32Array(0);
  private length = 0;
  /**
   * What each block allows (1: no limiting), from index 2; 0 and 1 hold the two blocks before
   * `buf` (already sent), and two more past the last block allow 1 (the end of the stream).
   */
  private allows = new Float32Array(4).fill(1);
  /** The loudest of the held samples of a block the last piece ended within (0: it ended on an edge). */
  private partialPeak = 0;
  /** The gain at the edge where `buf` starts. */
  private edge = 1;
  private readonly ceiling: number;
  private readonly release: number;

  constructor(rate: number, ceilingDb: number) {
    this.ceiling = 32767 * 10 ** (ceilingDb / 20);
    this.release = LIMITER_BLOCK / rate / 0.05;
  }

  /**
   * Limits `samples` (any level), first scaled by a gain running in a straight line from `from` to
   * `to` across them (the mix's master gain: one pass for both), and returns what can go out now:
   * everything when `final`.
   */
  push(samples: Float32Array, final: boolean, from = 1, to = 1): Int16Array {
    const held = this.length;
    const length = held + samples.length;
    if (length > this.buf.length) {
      const grown = new Float32Array(Math.max(length, 2 * this.buf.length));
      grown.set(this.buf.subarray(0, held));
      this.buf = grown;
    }
    const buf = this.buf;
    const blocks = Math.ceil(length / BLOCK);
    if (blocks + 4 > this.allows.length) {
      const grown = new Float32Array(2 * (blocks + 4));
      grown.set(this.allows);
      this.allows = grown;
    }
    const allows = this.allows;
    const lastPeak = rampAndAllow(buf, held, samples, from, (to - from) / Math.max(1, samples.length / 2), this.ceiling, allows, this.partialPeak);
    this.partialPeak = !final && length % BLOCK ? lastPeak : 0;
    allows[blocks + 2] = 1;
    allows[blocks + 3] = 1;
    // Whole blocks go out, keeping two behind for the edges they decide (all of it at the end).
    const outBlocks = final ? blocks : Math.max(0, Math.floor(length / BLOCK) - 2);
    const out = new Int16Array(Math.min(length, outBlocks * BLOCK));
    // (The stream's first edge: no block before it set it.)
    const first = Math.min(this.edge, allows[1]!, allows[2]!);
    this.edge = applyLimits(buf, out, allows, outBlocks, first, this.release);
    // (The held blocks' allowances move along with the two before them: only new samples are measured.)
    allows.copyWithin(0, outBlocks, blocks + 2);
    buf.copyWithin(0, out.length, length);
    this.length = length - out.length;
    return out;
  }
}

/**
 * buf[at..] = samples scaled by a gain from `from`, `step` more at each frame; allows[2 + b]: what
 * block b allows, from its loudest sample, for every block the new samples fall in (`peak`: the
 * loudest held sample of the block at `at`). One pass for both; returns the last block's peak.
 */
function rampAndAllow(buf: Float32Array, at: number, samples: Float32Array, from: number, step: number, ceiling: number, allows: Float32Array, peak: number): number {
  const length = at + samples.length;
  let last = peak;
  for (let b = Math.floor(at / BLOCK), i = at; i < length; b++) {
    const end = Math.min(length, (b + 1) * BLOCK);
    peak = rampBlock(buf, i, end, samples, i - at, from, step, peak);
    // (A silent block: ceiling / 0, no limit.)
    allows[b + 2] = Math.min(1, ceiling / peak);
    last = peak;
    peak = 0;
    i = end;
  }
  return last;
}

/**
 * rampAndAllow's block: buf[i..end) from samples[j..]; returns the loudest of them and `peak`.
 * A function of its own, entered at every block: V8 optimises it with feedback at its entry (a
 * function entered a few times for long loops was optimised on the stack alone, then its
 * whole-function code deoptimised at its first line and the render ran it unoptimised).
 */
function rampBlock(buf: Float32Array, i: number, end: number, samples: Float32Array, j: number, from: number, step: number, peak: number): number {
  for (; i < end; i += 2, j += 2) {
    const g = from + step * (j >> 1);
    const l = Math.fround(samples[j]! * g);
    const r = Math.fround(samples[j + 1]! * g);
    buf[i] = l;
    buf[i + 1] = r;
    peak = Math.max(peak, Math.abs(l), Math.abs(r));
  }
  return peak;
}

/**
 * Nearest integer (halves up), with no branch: a branch on the sign, taken at random for audio,
 * was mispredicted at every other sample. No clamp: applyLimits' gain keeps every value within
 * the ceiling (below full scale), and the offset keeps the truncation's operand positive.
 */
const toInt16 = (v: number) => ((v + 32768.5) | 0) - 32768;

/**
 * out = buf under the limiter's gain: from `edge`, the edge after block b the least of blocks
 * b - 1 .. b + 2 allow (allows[b + 1 .. b + 4]), risen at most `release` from the one before, in
 * straight lines between edges. Returns the last edge.
 */
function applyLimits(buf: Float32Array, out: Int16Array, allows: Float32Array, blocks: number, edge: number, release: number): number {
  for (let b = 0; b < blocks; b++) {
    const next = Math.min(allows[b + 1]!, allows[b + 2]!, allows[b + 3]!, allows[b + 4]!, edge + release);
    const start = b * BLOCK;
    const end = Math.min(out.length, start + BLOCK);
    const slope = (next - edge) / LIMITER_BLOCK;
    for (let i = start, f = 0; i < end; i += 2, f++) {
      const g = edge + slope * f;
      out[i] = toInt16(buf[i]! * g);
      out[i + 1] = toInt16(buf[i + 1]! * g);
    }
    edge = next;
  }
  return edge;
}
