// What every background kind answers (one file per kind in this folder, chosen in index.ts):
// a still picture painted once at the output size, or a moving one giving a yuv420p frame per
// output frame. The presenter and captions are composed over either (frame-compositor.ts).
import type { Canvas } from '@napi-rs/canvas';
import type { SceneLayout } from '../../../../shared/scene/index.js';
import type { RenderScene } from '../../types.js';

export interface BackgroundSource {
  /** The whole frame's background when it never changes (premultiplied RGBA at the output size); null when it moves. */
  readonly still: Canvas | null;
  /** A moving background's yuv420p frame at the segment's local time t (times only grow). */
  frameAt?(t: number): Promise<Uint8Array>;
  /** Lets go of what the source holds (a decoder process); safe to call twice. */
  close(): void;
}

export interface BackgroundRequest {
  layout: SceneLayout;
  /** The scene whose background this is (its `media` resolved); the template's art when it has none. */
  scene: Pick<RenderScene, 'background' | 'media'>;
  /** The scene's place in the video, for error messages ("scene 2"). */
  index: number;
  signal: AbortSignal;
}

export type OpenBackground = (req: BackgroundRequest) => Promise<BackgroundSource>;

/** A still background from a canvas painted at the output size. */
export const stillBackground = (still: Canvas): BackgroundSource => ({
  still,
  close() {
    still.width = 1; // frees its pixels now, not whenever the GC gets to it
    still.height = 1;
  },
});
