// Ducking: the music's gain under the narration, from the narration itself (no script markup
// needed). Speech is found in 10 ms frames; a frame is "under speech" while a spoken frame was
// at most `hold` ago (gaps between words and sentences stay ducked: no pumping); the gain falls
// to the full depth before speech starts (`attack`, looking ahead) and rises after it
// (`release`), in straight lines in dB, interpolated sample by sample: no step, no click.

export const DUCKING = {
  /** How far the music drops under speech (dB). */
  depthDb: 14,
  attackSeconds: 0.25,
  releaseSeconds: 0.6,
  holdSeconds: 0.8,
  /** A frame louder than this (RMS, dBFS) is speech. */
  speechDbfs: -45,
  frameSeconds: 0.01,
} as const;

export class Ducker {
  readonly frameSamples: number;
  private readonly holdFrames: number;
  readonly attackFrames: number;
  private readonly attackStep: number;
  private readonly releaseStep: number;
  private readonly threshold: number;
  /** Per frame: the gain it asks for (0 dB or -depth), from the speech up to it. */
  private readonly targets: number[] = [];
  private lastSpoken = -Infinity;
  /** Sum of squares and count of the frame being filled. */
  private partialSum = 0;
  private partialCount = 0;
  /** Gain (dB) of the last frame handed out. */
  private lastGainDb = 0;
  private handedOut = 0;

  constructor(rate: number, private readonly depthDb: number) {
    this.frameSamples = Math.round(rate * DUCKING.frameSeconds);
    this.holdFrames = Math.round(DUCKING.holdSeconds / DUCKING.frameSeconds);
    this.attackFrames = Math.round(DUCKING.attackSeconds / DUCKING.frameSeconds);
    this.attackStep = depthDb / this.attackFrames;
    this.releaseStep = depthDb / Math.round(DUCKING.releaseSeconds / DUCKING.frameSeconds);
    this.threshold = (32768 * 10 ** (DUCKING.speechDbfs / 20)) ** 2;
  }

  /** Whole frames of narration seen so far. */
  get frames(): number {
    return this.targets.length;
  }

  /** More narration (mono, at the mix's rate). */
  push(narration: Int16Array): void {
    // A frame's part at a time: the squares' loop has no branch, and a frame's end is seen here.
    for (let i = 0; i < narration.length; ) {
      const n = Math.min(narration.length - i, this.frameSamples - this.partialCount);
      this.partialSum = sumOfSquares(narration, i, i + n, this.partialSum);
      this.partialCount += n;
      i += n;
      if (this.partialCount === this.frameSamples) this.closeFrame();
    }
  }

  /** The narration has ended: a partial last frame counts as a frame. */
  end(): void {
    if (this.partialCount) this.closeFrame();
  }

  private closeFrame(): void {
    const i = this.targets.length;
    if (this.partialSum / this.partialCount > this.threshold) this.lastSpoken = i;
    this.targets.push(i - this.lastSpoken <= this.holdFrames ? -this.depthDb : 0);
    this.partialSum = 0;
    this.partialCount = 0;
  }

  /**
   * The gains (dB) of the next `count` frames, handed out once. Needs `attackFrames` frames of
   * narration beyond them (fewer only at the end), to fall in time before speech.
   */
  next(count: number): Float32Array {
    const from = this.handedOut;
    const to = from + count;
    const look = Math.min(this.targets.length, to + this.attackFrames);
    const out = new Float32Array(count);
    let ahead = 0;
    for (let j = look - 1; j >= from; j--) {
      ahead = Math.min(this.targets[j] ?? 0, ahead + this.attackStep);
      if (j < to) out[j - from] = ahead;
    }
    let g = this.lastGainDb;
    for (let k = 0; k < count; k++) {
      g = Math.min(out[k]!, g + this.releaseStep);
      out[k] = g;
    }
    this.lastGainDb = g;
    this.handedOut = to;
    return out;
  }
}

/** `sum` plus the squares of samples[from..to). */
function sumOfSquares(samples: Int16Array, from: number, to: number, sum: number): number {
  for (let i = from; i < to; i++) sum += samples[i]! * samples[i]!;
  return sum;
}
