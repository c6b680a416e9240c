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

/**
 * What the presenter is doing in one frame: the one motion model every rig draws (poseAt).
 * Head offsets are in units of 1/480 of the rig's box height (the vector art's own units).
 */
export interface PresenterPose {
  viseme: Viseme;
  /** How far the jaw is open, 0 (lips together) to 1 (widest): the viseme's opening scaled by the loudness. */
  open: number;
  /** Eyelids, 0 open to 1 shut; a blink closes and opens them over about 0.15 s. */
  lid: number;
  /** Head offset (sway, nods, the settle at a sentence's end); the vector rig moves its head layers by it. */
  headDx: number;
  headDy: number;
  /** Head roll in radians, positive clockwise (photo rig; the vector rig moves by translation only). */
  headRoll: number;
}

export const NEUTRAL_POSE: PresenterPose = { viseme: 'rest', open: 0, lid: 0, headDx: 0, headDy: 0, headRoll: 0 };

/** The eyes are drawn shut (the vector rig's closed-eyes layer) from this lid closure on. */
export const LID_SHUT = 0.5;
export const eyesShut = (pose: PresenterPose): boolean => pose.lid >= LID_SHUT;

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

/**
 * Loudness of the narration over time: `values[i]` is the level (0 silence – 1 the narration's
 * loud syllables) of the `1 / rate` seconds from i / rate on.
 */
export interface LoudnessTrack {
  rate: number;
  values: number[];
}

/** What speech synthesis tells the scene: enough to animate the mouth, the head and the captions. */
export interface SpeechTimeline {
  durationSeconds: number;
  /** Words with their times; a word ending in . ! ? … (or `pageEnd`) ends a sentence. */
  words: TimedWord[];
  /** Phonemes with onsets; espeak's stress marks (ˈ primary) stay on them. */
  phonemes: TimedPhoneme[];
  /** Absent: the mouth follows the visemes alone. */
  loudness?: LoudnessTrack;
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
