// The video as a timeline of segments, one per scene, each with its own local time (as
// Remotion's Series): its narration spoken with its voice, its caption pages, its frame source
// over its background. A segment lasts its narration plus the voice's sentence pause before the
// next scene, or its minSeconds where longer (the sound padded with silence). A segment is
// opened when the narration reaches it (a little ahead of the frames), entered through its
// transition, and let go of when the frames leave it. The first segment starts with the
// video's lead-in (silence, the presenter at rest) and the last ends with its tail.
import { createCanvas, ImageData, type Canvas } from '@napi-rs/canvas';
import { OUTPUT_FPS, outputSize, VIDEO_EDGES, type RenderParams } from '../../shared/contract/index.js';
import { blinkTimes, createAnimation, eyesOpenNear, spokenScript, templateEntry, type Animation, type CaptionPage, type TimedWord } from '../../shared/scene/index.js';
import { openBackground, type BackgroundSource } from './frames/backgrounds/index.js';
import { loadBrand, type LoadedBrand } from './frames/brand.js';

/** A promise's outcome as a value, so it can wait unobserved without an unhandled rejection. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
const unwrap = <T>(s: Settled<T>): T => {
  if (!s.ok) throw s.error;
  return s.value;
};
import { addCaptionPages, composedSource, drawFullFrame, fullFrameSource, prepareScene, releaseArt, type FramePool, type FrameSource, type Scene } from './frames/scene-frames.js';
import { transitionSource } from './frames/transitions.js';
import { yuvToRgba } from './frames/yuv.js';
import { joinPauseSeconds, Narration, type NarrationChunk } from './speech/narration.js';
import { SPEECH_SAMPLE_RATE } from './speech/speech.js';
import type { SpeechEngines } from './speech/speech-engines.js';
import type { EngineVoice } from './speech/voices.js';
import { EngineError, type RenderScene, type RenderTask } from './types.js';

/** The scenes of a task: its own, or the original contract's one scene of `text` over the template. */
export function taskScenes(task: Pick<RenderTask, 'scenes' | 'text' | 'templateId' | 'voiceId' | 'params' | 'presenterId'>): RenderScene[] {
  if (task.scenes?.length) return task.scenes;
  const template = templateEntry(task.templateId);
  if (!template) throw new EngineError('invalid_input', `Unknown template "${task.templateId}".`);
  return [{
    text: task.text, templateId: task.templateId, voiceId: task.voiceId, presenterId: task.presenterId ?? template.presenter.id, avatar: task.params.avatar,
    background: null, transition: 'cut', media: null,
  }];
}

/** Audio for the encoder, in order: a chunk of narration (levelled when asked for) or samples of silence. */
export type AudioPiece = { chunk: NarrationChunk } | { silence: number };

/** Frames from a segment's start after which its presenter art may go (once the thumbnail no longer needs it). */
const ART_FRAMES = OUTPUT_FPS;

class Segment {
  /** Where it starts and ends in the video, in samples of the narration (exact, so audio and frames agree). */
  startSample = 0;
  endSample: number | null = null;
  narration: Narration | null = null;
  /** Its scene, background and frame source, once opened. */
  ready: Promise<void> | null = null;
  scene: Scene | null = null;
  private anim: Animation | null = null;
  background: BackgroundSource | null = null;
  source: FrameSource | null = null;
  /** Caption words spoken before the scene was laid out. */
  private unplaced: TimedWord[][] = [];
  artDone = false;

  constructor(readonly index: number, readonly spec: RenderScene, readonly voice: EngineVoice) {}

  get start(): number {
    return this.startSample / SPEECH_SAMPLE_RATE;
  }

  get end(): number | null {
    return this.endSample === null ? null : this.endSample / SPEECH_SAMPLE_RATE;
  }

  /** Silence before the first word, in samples (the video's lead-in, in the first segment). */
  get leadSamples(): number {
    return this.index === 0 ? Math.round(VIDEO_EDGES.leadInSeconds * SPEECH_SAMPLE_RATE) : 0;
  }

  private leadTaken = false;

  /** The lead-in's samples of silence, once (they go out before the first chunk's audio). */
  takeLead(): number {
    const n = this.leadTaken ? 0 : this.leadSamples;
    this.leadTaken = true;
    return n;
  }

  speak(speech: SpeechEngines, signal: AbortSignal, lexicon?: RenderTask['lexicon']): void {
    this.narration ??= new Narration(speech, spokenScript(this.spec.text), this.voice, signal, this.leadSamples / SPEECH_SAMPLE_RATE, lexicon);
  }

  /** Lays out the scene and opens its background; the frame source follows. */
  open(task: RenderTask, pool: FramePool, fullFrames: boolean, signal: AbortSignal, brand: Promise<Settled<LoadedBrand | undefined>>): void {
    const spec = this.spec;
    const params: RenderParams = { ...task.params, avatar: spec.avatar ?? task.params.avatar };
    const size = outputSize(task.params.aspectRatio, task.shortSide);
    this.ready = (async () => {
      const scene = await prepareScene(spec.templateId, { params, shortSide: task.shortSide }, [], size, {
        brand: unwrap(await brand),
        presenterId: spec.presenterId,
        presenter: spec.avatar !== null,
        ...(task.photoPresenters?.[spec.presenterId] ? { photo: task.photoPresenters[spec.presenterId] } : {}),
        background: async (layout) => (this.background = await openBackground({ layout, scene: spec, index: this.index, signal })).still,
      });
      this.scene = scene;
      this.anim = createAnimation(this.narration!.timeline);
      this.refreshBlinks();
      for (const words of this.unplaced.splice(0)) addCaptionPages(scene, words);
      const moving = this.background?.frameAt?.bind(this.background);
      if (fullFrames && moving) throw new EngineError('invalid_input', 'The full-frame baseline draws still backgrounds only.');
      this.source = fullFrames ? fullFrameSource(scene, this.anim) : composedSource(scene, this.anim, pool, moving);
    })();
    this.ready.catch(() => undefined); // awaited when the frames reach it; a failure must not go unhandled before
  }

  took(chunk: NarrationChunk): void {
    if (this.scene) addCaptionPages(this.scene, chunk.words);
    else this.unplaced.push(chunk.words);
    this.refreshBlinks();
  }

  /** Blinks over all of the segment known so far (its narration, or its whole length once known). */
  private refreshBlinks(): void {
    if (!this.anim) return;
    const known = this.end !== null ? this.end - this.start : this.narration!.timeline.durationSeconds;
    this.anim.blinks = blinkTimes(known + 1);
  }

  /** The narration is all taken: the segment ends after it (and `pause`), or at its minimum length. */
  finish(pauseSamples: number): number {
    const spoken = Math.round(this.narration!.timeline.durationSeconds * SPEECH_SAMPLE_RATE);
    const min = Math.round((this.spec.minSeconds ?? 0) * SPEECH_SAMPLE_RATE);
    this.endSample = this.startSample + Math.max(spoken + pauseSamples, min, 1);
    this.refreshBlinks();
    return this.endSample - this.startSample - spoken;
  }

  /** The whole frame at local time t drawn by Skia (a still background; the thumbnail). */
  drawStill(t: number): Canvas | null {
    return this.scene?.background && this.anim && !this.artDone ? drawFullFrame(this.scene, this.anim, t) : null;
  }

  close(): void {
    this.background?.close();
    if (this.scene && !this.artDone) releaseArt(this.scene);
    this.artDone = true;
    this.source = null;
  }
}

export interface TimelineOptions {
  task: RenderTask;
  speech: SpeechEngines;
  pool: FramePool;
  /** Benchmark baseline: whole RGBA frames drawn by Skia. */
  fullFrames: boolean;
  signal: AbortSignal;
}

export class Timeline {
  readonly segments: Segment[];
  readonly width: number;
  readonly height: number;
  /** The segment whose narration is being taken. */
  private speaking = 0;
  /** The segment the frames are in, and its frames as they enter it. */
  private cursor = 0;
  private current: FrameSource | null = null;
  /** The last frame handed out (the leaving scene's, when a transition mixes from it). */
  private shown: Buffer | null = null;
  private leaving: Buffer | null = null;
  private framesInSegment = 0;
  private restSpoken = false;
  /** Settled, not rejected: the render awaits it only once the video is written. */
  private thumb: Promise<Settled<Buffer>> | null = null;
  /** Extension `brand`: its logo and font, loaded once for every scene. */
  private readonly brand: Promise<Settled<LoadedBrand | undefined>>;

  constructor(private readonly o: TimelineOptions, voices: EngineVoice[]) {
    const scenes = taskScenes(o.task);
    this.segments = scenes.map((s, i) => new Segment(i, s, voices[i]!));
    const size = outputSize(o.task.params.aspectRatio, o.task.shortSide);
    this.width = size.width | 0;
    this.height = size.height | 0;
    // Settled, not rejected: every segment's open rethrows a failure, and none waits before the first.
    this.brand = settle(o.task.brand ? loadBrand(o.task.brand, size) : Promise.resolve(undefined));
    const first = this.segments[0]!;
    first.speak(o.speech, o.signal, o.task.lexicon);
    first.open(o.task, o.pool, o.fullFrames, o.signal, this.brand);
  }

  /** Resolves once the first segment can give frames (laid out while its first sentence is spoken). */
  async prime(): Promise<void> {
    const first = this.segments[0]!;
    await first.ready;
    first.source!.prime();
  }

  /** Seconds of the video whose sound is known. */
  get spokenUntil(): number {
    const s = this.segments[this.speaking]!;
    return s.end ?? s.start + s.narration!.timeline.durationSeconds;
  }

  /** Every segment's narration taken, so every length known. */
  get done(): boolean {
    return this.speaking === this.segments.length - 1 && this.segments[this.speaking]!.endSample !== null;
  }

  get duration(): number {
    return this.segments[this.segments.length - 1]!.end ?? this.spokenUntil;
  }

  /** Takes the next piece of narration (or ends a segment and opens the next); returns the audio it adds. */
  async speakMore(): Promise<AudioPiece[]> {
    const s = this.segments[this.speaking]!;
    const narration = s.narration!;
    if (!narration.done) {
      const lead = s.takeLead();
      const chunk = (await narration.next())!;
      s.took(chunk);
      if (!this.restSpoken) {
        // The other scenes are asked for once the first sentence is ready (it has the cores to itself).
        this.restSpoken = true;
        for (const other of this.segments) other.speak(this.o.speech, this.o.signal, this.o.task.lexicon);
      }
      return lead ? [{ silence: lead }, { chunk }] : [{ chunk }];
    }
    const last = this.speaking === this.segments.length - 1;
    const pause = Math.round((last ? VIDEO_EDGES.tailSeconds : joinPauseSeconds(s.voice.espeak)) * SPEECH_SAMPLE_RATE);
    const silence = s.finish(pause);
    if (!last) {
      const next = this.segments[++this.speaking]!;
      next.startSample = s.endSample!;
      next.speak(this.o.speech, this.o.signal, this.o.task.lexicon);
      next.open(this.o.task, this.o.pool, this.o.fullFrames, this.o.signal, this.brand);
    }
    return silence > 0 ? [{ silence }] : [];
  }

  /** The frame at video time t (times only grow; the sound must be known past t). */
  frame(t: number): Buffer | Promise<Buffer> {
    const s = this.segments[this.cursor]!;
    const end = s.end;
    if (this.current && (end === null || t < end || this.cursor === this.segments.length - 1)) {
      const out = this.current.frame(t - s.start);
      return out instanceof Promise ? out.then((b) => this.showing(b)) : this.showing(out);
    }
    return this.enter(t);
  }

  private showing(b: Buffer): Buffer {
    this.shown = b;
    this.framesInSegment++;
    return b;
  }

  /** Enters the segment at t (the next one, or the first): its frames through its transition. */
  private async enter(t: number): Promise<Buffer> {
    const { pool } = this.o;
    if (this.current) {
      const leaving = this.segments[this.cursor]!;
      if (this.leaving) pool.release(this.leaving);
      this.leaving = this.shown;
      if (this.leaving) pool.hold(this.leaving); // mixed from while the next scene enters
      this.settleThumbnail(leaving);
      leaving.close();
      this.cursor++;
      pool.forget();
    }
    const s = this.segments[this.cursor]!;
    if (!s.ready) throw new Error(`Segment ${s.index} was reached before it was opened.`);
    await s.ready;
    const entering = s.source!;
    if (this.cursor > 0) entering.prime();
    this.current = this.leaving ? transitionSource(s.spec.transition, this.leaving, entering, pool, this.width, this.height) : entering;
    this.framesInSegment = 0;
    return this.frame(t);
  }

  /**
   * After frame f at time t: the thumbnail is drawn once it can be (the third word spoken, as a
   * still the moment its segment's first second is out, or from the frame itself over a moving
   * background), and then a segment's presenter art is let go of.
   */
  afterFrame(t: number, f: number): void {
    const s = this.segments[this.cursor]!;
    if (!this.thumb && f >= OUTPUT_FPS) this.tryThumbnail(s, t, false);
    if (!s.artDone && this.framesInSegment >= ART_FRAMES && (this.thumb || !this.thumbnailIn(s))) {
      s.artDone = true;
      s.source?.artDone();
    }
  }

  /**
   * The thumbnail's time, or null while not yet known: `params.thumbnailAt` (the last frame when
   * it is past the end), else the third word spoken (the last when fewer), moved off a blink.
   */
  private thumbnailTime(): number | null {
    const at = this.o.task.params.thumbnailAt;
    if (at !== undefined) {
      for (const s of this.segments) {
        const known = s.end ?? s.start + (s.narration?.timeline.durationSeconds ?? 0);
        if (at < known) return at;
        if (s.endSample === null) return null;
      }
      return Math.max(0, this.duration - 1 / OUTPUT_FPS);
    }
    // Just after a word starts (segment time), or a frame before a blink under way then.
    const openEyed = (wordStart: number) => eyesOpenNear(blinkTimes(wordStart + 1), wordStart + 0.05, 1 / OUTPUT_FPS);
    let n = 0;
    let lastWord: number | null = null;
    for (const s of this.segments) {
      const words = s.narration?.timeline.words ?? [];
      if (n + words.length >= 3) return s.start + openEyed(words[2 - n]!.start);
      n += words.length;
      if (words.length) lastWord = s.start + openEyed(words[words.length - 1]!.start);
      if (s.endSample === null) return null;
    }
    return lastWord ?? 0;
  }

  private thumbnailIn(s: Segment): boolean {
    const at = this.thumbnailTime();
    return at === null || (at >= s.start && (s.end === null || at < s.end));
  }

  /** Draws the thumbnail from segment s when its time falls there (`now`: whatever the time, the video is ending or leaving it). */
  private tryThumbnail(s: Segment, t: number, now: boolean): void {
    const at = this.thumbnailTime();
    if (at === null && !now) return;
    const inside = at !== null && at >= s.start && (s.end === null || at < s.end);
    if (!inside && !now && (at === null || at >= s.start)) return; // in a later segment
    const local = Math.max(0, Math.min((inside ? at! : t) - s.start, (s.end ?? Infinity) - s.start - 1 / OUTPUT_FPS));
    const still = s.drawStill(local);
    if (still) {
      this.thumb = settle(still.encode('jpeg', 86));
    } else if (this.shown && (now || t >= (at ?? 0))) {
      this.thumb = settle(this.frameAsStill(this.shown).encode('jpeg', 86));
    }
  }

  private settleThumbnail(s: Segment): void {
    if (!this.thumb && this.thumbnailIn(s)) this.tryThumbnail(s, s.end ?? 0, true);
  }

  private frameAsStill(frame: Buffer): Canvas {
    const c = createCanvas(this.width, this.height);
    c.getContext('2d').putImageData(new ImageData(yuvToRgba(frame, this.width, this.height), this.width, this.height), 0, 0);
    return c;
  }

  /** After the last frame: draws the thumbnail from the last frame's segment when it was not yet (a video shorter than a second). */
  finishThumbnail(t: number): void {
    if (!this.thumb) this.tryThumbnail(this.segments[this.cursor]!, t, true);
  }

  /** The thumbnail's JPEG. */
  async thumbnail(): Promise<Buffer> {
    if (!this.thumb) throw new Error('No frame was drawn for the thumbnail.');
    return unwrap(await this.thumb);
  }

  /** Every scene's caption pages and words at their times in the video, and the time each page must end by (its scene's end). */
  captions(): { pages: CaptionPage[]; words: TimedWord[]; ends: number[] } {
    const pages: CaptionPage[] = [];
    const words: TimedWord[] = [];
    const ends: number[] = [];
    for (const s of this.segments) {
      if (!s.scene) continue;
      const first = words.length;
      const at = s.start;
      words.push(...s.scene.words.map((w) => ({ ...w, start: w.start + at, end: w.end + at })));
      for (const p of s.scene.pages) {
        pages.push({ start: p.start + at, end: p.end + at, lines: p.lines.map((l) => l.map((i) => i + first)) });
        ends.push(s.end ?? this.duration);
      }
    }
    return { pages, words, ends };
  }

  close(): void {
    for (const s of this.segments) s.close();
  }
}
