// Engine factory used by the server. Until the real engine lands this returns null, and the
// queue fails every job with `engine_unavailable` (never completes a job without a video).
import type { RenderEngine } from './types.js';

export interface EngineOptions {
  /** Where the engine may keep caches (voice samples, thumbnails). */
  cacheDir: string;
}

export async function createEngine(_options: EngineOptions): Promise<RenderEngine | null> {
  return null;
}

export * from './types.js';
