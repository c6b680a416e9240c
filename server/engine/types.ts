// The render engine interface the worker queue calls. The real engine (speech → frames →
// ffmpeg) implements it; tests may drive the queue with a controllable engine.
import { z } from 'zod';
import type { AssetKind, Brand, Job, LexiconEntry, Music, Scene, ShortSide } from '../../shared/contract/index.js';

/** A scene's background file as this worker reads it (resolved from the asset id by the queue). */
export interface SceneMedia {
  kind: Exclude<AssetKind, 'audio' | 'font'>;
  /** A local path this process may read (the asset's stored content). */
  path: string;
  mediaType: string;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  pages: number | null;
}

/** A job's scene with its background resolved (null: the template's own background). */
export interface RenderScene extends Scene {
  media: SceneMedia | null;
}

/** The job's music as this worker reads it (resolved from the asset id by the queue). */
export interface RenderMusic extends Music {
  /** A local path this process may read (the audio asset's stored content). */
  path: string;
  durationSeconds: number | null;
}

/**
 * Extension `brand`: the job's brand with its assets resolved (by the queue, as backgrounds are)
 * to local files: the logo's image and its pixel size, a font asset's file.
 */
export interface RenderBrand {
  brand: Brand;
  logo: { path: string; width: number; height: number } | null;
  /** A font asset (null: a bundled font, or none). */
  font: { assetId: string; path: string } | null;
}

/**
 * A photo presenter as this worker reads it (resolved from a `pht_` presenterId by the queue):
 * the portrait and its cut-out mask as local files, and its Face Mesh points.
 */
export interface PhotoPresenterSpec {
  kind: 'photo';
  id: string;
  portraitPath: string;
  maskPath: string | null;
  /** The portrait's size in pixels (what the landmarks' fractions are of). */
  width: number;
  height: number;
  landmarks: [number, number][];
}

/** The job's content (voiceId canonical, resolved from either id form) and what this attempt needs. */
export interface RenderTask extends Pick<Job, 'text' | 'templateId' | 'voiceId' | 'params' | 'presenterId'> {
  jobId: string;
  /**
   * Extension `scenes`: the video as a timeline of scenes; absent for a request of the original
   * contract, which is one scene of `text` over the template.
   */
  scenes?: RenderScene[];
  /** Extension `sound`: how the voice says words (whole words, any case); captions keep the script's. */
  lexicon?: LexiconEntry[];
  /** Extension `sound`: music mixed under the narration (absent: narration alone). */
  music?: RenderMusic;
  /** Extension `brand`: absent when the job has none. */
  brand?: RenderBrand;
  shortSide: ShortSide;
  /** The photo presenters the job's scenes speak with, by id (absent: none). */
  photoPresenters?: Record<string, PhotoPresenterSpec>;
  /**
   * A fresh, empty directory owned by this attempt. The engine writes `video.mp4`,
   * `captions.vtt` and `thumbnail.jpg` here; the queue moves them into storage on success and
   * removes the directory on failure or cancel, so no partial file is ever published.
   */
  workDir: string;
  /** Aborted on cancel or shutdown: the engine must stop (ffmpeg killed) within a second. */
  signal: AbortSignal;
  /** 0–1; the queue keeps the recorded value monotonic. */
  onProgress(progress: number): void;
}

/** What a render returns (also what the benchmark's child process reports, parsed with this). */
export const RenderResult = z.object({
  durationSeconds: z.number(),
  width: z.number(),
  height: z.number(),
  /** Where the time went (benchmarks print it); the queue may ignore it. */
  stats: z
    .object({ frames: z.number(), speechSeconds: z.number(), drawSeconds: z.number(), waitSeconds: z.number(), sentPixelsPerFrame: z.number() })
    .optional(),
});
export type RenderResult = z.infer<typeof RenderResult>;

/** Neural synthesis so far: seconds in the model, seconds in all, seconds of audio made. */
export const SpeechStats = z.object({ modelSeconds: z.number(), totalSeconds: z.number(), audioSeconds: z.number() });
export type SpeechStats = z.infer<typeof SpeechStats>;

/** A failure a person can understand; `code` lands in `job.error.code`. */
export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export interface RenderEngine {
  readonly name: string;
  render(task: RenderTask): Promise<RenderResult>;
  /** A short spoken sample of a voice as WAV bytes (cached by the caller); `say`: these words instead of its sample line (not cached). */
  voiceSample(voiceId: string, say?: string): Promise<Buffer>;
  /** Extension `sound`: a text spoken by a voice with music under it, mixed as a video's sound, as MP3. */
  soundPreview?(input: { text: string; voiceId: string; music: RenderMusic }, signal: AbortSignal): Promise<Buffer>;
  /** An audio file is about to be deleted (an asset): drops what the engine keeps decoded of it. */
  forgetMusic?(path: string): Promise<void>;
  /** A JPEG still of a template at an aspect ratio with its default placement (the catalog's thumbnailUrl). */
  templateThumbnail(templateId: string, aspectRatio: import('../../shared/contract/index.js').AspectRatio): Promise<Buffer>;
  /** A PNG portrait (head and shoulders) of a built-in presenter, for pickers (the catalog's thumbnailUrl). */
  presenterThumbnail?(presenterId: string): Promise<Buffer>;
  /** The download state of a voice's pack (`builtin` for voices that ship with the app). */
  voicePack?(voiceId: string): Promise<import('../../shared/contract/index.js').VoicePackStatus>;
  /** Starts downloading a voice's pack when it is missing; answers at once with its state. */
  installVoicePack?(voiceId: string): Promise<import('../../shared/contract/index.js').VoicePackStatus>;
  /** Time spent in neural voice models so far (benchmarks report the model's share). */
  speechStats?(): SpeechStats;
  /** Resolves once the engine is ready to start a render at full speed (speech loaded and warm). */
  warmUp?(): Promise<void>;
  close?(): Promise<void>;
}
