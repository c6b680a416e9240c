// Pure facts about a document's scenes: what the canvas draws for one, how long each runs, and
// which scene an API error names. The shapes are shared/contract's document.
import { VIDEO_EDGES, type Avatar, type RenderParams, type Transition, type Voice } from '../../shared/contract/index.js';
import type { DocumentScene } from '../../shared/contract/document.js';
import { estimateSeconds } from './speech.js';

export const TRANSITION_LABEL: Record<Transition, string> = { cut: 'Cut', fade: 'Fade', slide: 'Slide' };

/** The placement a scene is drawn with: its own, else the video's. */
export function scenePlacement(params: RenderParams, scene: Pick<DocumentScene, 'avatar'> | undefined): Avatar {
  return scene?.avatar ?? params.avatar;
}

export function sceneParams(params: RenderParams, scene: Pick<DocumentScene, 'avatar'> | undefined): RenderParams {
  const avatar = scenePlacement(params, scene);
  return avatar === params.avatar ? params : { ...params, avatar };
}

/** A scene's estimated length: its narration as spoken, held to its minimum length. */
export function sceneSeconds(scene: Pick<DocumentScene, 'text' | 'minSeconds'>, voice: Voice | null | undefined): number {
  return Math.max(estimateSeconds(scene.text, voice), scene.minSeconds ?? 0);
}

/** The whole video: the sum of its scenes, with the lead-in before the first word and the tail after the last. */
export function videoSeconds(scenes: readonly Pick<DocumentScene, 'text' | 'minSeconds'>[], voice: Voice | null | undefined): number {
  return scenes.reduce((n, s) => n + sceneSeconds(s, voice), 0) + VIDEO_EDGES.leadInSeconds + VIDEO_EDGES.tailSeconds;
}

/**
 * The scene an error path names, and the field within it: `scenes.2.background.assetId` (or
 * `scenes[2].background.assetId`, `request.scenes.2…`) is scene 2's `background.assetId`. A
 * single-scene request's `text` is the first scene's. Null for a video-wide field.
 */
export function sceneOfPath(path: string): { index: number; field: string } | null {
  const p = path.replace(/^request\./, '');
  if (p === 'text') return { index: 0, field: 'text' };
  const m = /^scenes(?:\.(\d+)|\[(\d+)\])\.?(.*)$/.exec(p);
  if (!m) return null;
  return { index: Number(m[1] ?? m[2]), field: m[3] ?? '' };
}

/** `items` with the element at `from` moved to `to` (both clamped). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  const [it] = out.splice(from, 1);
  if (it === undefined) return out;
  out.splice(Math.max(0, Math.min(out.length, to)), 0, it);
  return out;
}
