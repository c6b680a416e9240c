// Types of one scene frame. Shared by the video engine (Node, @napi-rs/canvas) and the app's
// live preview (browser canvas), so both draw the same pixels from the same inputs.

export interface Size {
  width: number;
  height: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Mouth shapes. `rest` is the closed, relaxed mouth shown in pauses; `etc` is teeth together with
 * the lips just apart (t d n s z l k g), `e` the wider spread of front vowels.
 */
export const VISEMES = ['rest', 'mbp', 'ai', 'e', 'o', 'u', 'fv', 'etc'] as const;
export type Viseme = (typeof VISEMES)[number];

/** What the presenter is doing in one frame. */
export interface PresenterPose {
  viseme: Viseme;
  /** Eyes closed (mid-blink). */
  blink: boolean;
  /** Idle head motion: offset in art units (viewBox of the presenter). A pure translation, so
   * the engine can move pre-rasterised head layers instead of redrawing them. */
  headDx: number;
  headDy: number;
}

export const NEUTRAL_POSE: PresenterPose = { viseme: 'rest', blink: false, headDx: 0, headDy: 0 };

/** A spoken word with its time span in seconds from the start of the audio. */
export interface TimedWord {
  text: string;
  start: number;
  end: number;
  /** Ends a line of the script that ends a thought without punctuation (a heading, a list item): its caption page ends here, as at a sentence's end. */
  pageEnd?: boolean;
}

/** A phoneme (espeak IPA) with its time span in seconds. */
export interface TimedPhoneme {
  phoneme: string;
  start: number;
  end: number;
}

/** What speech synthesis tells the scene: enough to animate the mouth and captions. */
export interface SpeechTimeline {
  durationSeconds: number;
  words: TimedWord[];
  phonemes: TimedPhoneme[];
}

/** The caption lines visible in one frame and which word is being spoken. */
export interface CaptionView {
  /** Lines of words, already fitted to the caption box. */
  lines: string[][];
  /** Index into the flattened words of `lines` of the word being spoken, or -1. */
  activeIndex: number;
}

/**
 * The smallest 2D-context surface the scene draws with. The DOM's CanvasRenderingContext2D,
 * OffscreenCanvasRenderingContext2D and @napi-rs/canvas's context all satisfy it.
 */
export interface Ctx2D {
  save(): void;
  restore(): void;
  translate(x: number, y: number): void;
  rotate(angle: number): void;
  scale(x: number, y: number): void;
  beginPath(): void;
  closePath(): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  arc(x: number, y: number, r: number, a0: number, a1: number, ccw?: boolean): void;
  ellipse(x: number, y: number, rx: number, ry: number, rot: number, a0: number, a1: number, ccw?: boolean): void;
  quadraticCurveTo(cpx: number, cpy: number, x: number, y: number): void;
  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void;
  rect(x: number, y: number, w: number, h: number): void;
  roundRect(x: number, y: number, w: number, h: number, r: number | number[]): void;
  fill(): void;
  stroke(): void;
  clip(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number, maxWidth?: number): void;
  strokeText(text: string, x: number, y: number, maxWidth?: number): void;
  /** The advance `width`; the ink's extent around the pen position (what captionWordReach needs). */
  measureText(text: string): { width: number; actualBoundingBoxLeft: number; actualBoundingBoxRight: number; actualBoundingBoxAscent: number; actualBoundingBoxDescent: number };
  createLinearGradient(x0: number, y0: number, x1: number, y1: number): GradientLike;
  createRadialGradient(x0: number, y0: number, r0: number, x1: number, y1: number, r1: number): GradientLike;
  // Method syntax keeps this assignable from each platform's own image types.
  drawImage(image: ImageLike, dx: number, dy: number, dw: number, dh: number): void;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  lineCap: string;
  lineJoin: string;
  font: string;
  textAlign: string;
  textBaseline: string;
  /** Base direction of drawn text (the shaper's, for punctuation at a right-to-left word's ends). */
  direction: string;
  globalAlpha: number;
  shadowColor: string;
  shadowBlur: number;
  shadowOffsetX: number;
  shadowOffsetY: number;
}

export interface GradientLike {
  addColorStop(offset: number, color: string): void;
}

/** An image or canvas the context can draw: HTMLImageElement, ImageBitmap, a canvas, @napi-rs Image. */
export type ImageLike = object;
