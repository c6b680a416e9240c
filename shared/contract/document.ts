// The one document shape of a video: what a draft saves, what an outbox entry waits with and
// what becomes a render request. Video-wide settings plus `scenes[]`, versioned; files written
// by an earlier version are migrated on read (`readVideoDocument`).
import { z } from 'zod';
import {
  Avatar, LIMITS, RenderParamsInput, SCENE_MIN_SECONDS_MAX, SceneBackground, Transition,
  type RenderRequest, type SceneInput,
} from './schemas.js';

export const DOCUMENT_VERSION = 2;

export const SceneKey = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'is not a scene id');

/** One scene of a document, as the editor keeps it (a draft may hold more text than a render accepts). */
export const DocumentScene = z.strictObject({
  /** Stable across edits and reorders (the scene strip's key); never sent to the render API. */
  id: SceneKey,
  text: z.string().max(LIMITS.totalTextMaxChars),
  /** null: the template's own background. */
  background: SceneBackground.nullable(),
  /** false: no presenter in this scene. */
  presenter: z.boolean(),
  /** This scene's own placement; null: the video's (`params.avatar`). */
  avatar: Avatar.nullable(),
  transition: Transition,
  minSeconds: z.number().min(0).max(SCENE_MIN_SECONDS_MAX).nullable(),
});
export type DocumentScene = z.infer<typeof DocumentScene>;

/** Video-wide settings plus its scenes. */
export const VideoDocument = z.strictObject({
  version: z.literal(DOCUMENT_VERSION),
  name: z.string().max(200),
  templateId: z.string().max(64).nullable(),
  voiceId: z.string().max(64).nullable(),
  params: RenderParamsInput,
  scenes: z.array(DocumentScene).min(1).max(LIMITS.scenesMax),
});
export type VideoDocument = z.infer<typeof VideoDocument>;

/** Version 1 (before scenes): one script and the video's settings, no version field. */
const DocumentV1 = z.object({
  name: z.string().max(200),
  text: z.string().max(LIMITS.totalTextMaxChars),
  templateId: z.string().max(64).nullable(),
  voiceId: z.string().max(64).nullable(),
  params: RenderParamsInput,
});

let sceneSeq = 0;
export function newSceneId(): string {
  sceneSeq = (sceneSeq + 1) % 1e6;
  return `s_${Date.now().toString(36)}${sceneSeq.toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`;
}

/** A scene with nothing of its own: the template's background, the presenter as the video places it. */
export function blankScene(text = ''): DocumentScene {
  return { id: newSceneId(), text, background: null, presenter: true, avatar: null, transition: 'cut', minSeconds: null };
}

/**
 * Reads a saved document of any version into the current shape (other fields of the file, such as a
 * draft's id and dates, are kept as they were). Throws a ZodError when it is none.
 */
export function migrateDocument(raw: unknown): Record<string, unknown> & VideoDocument {
  const obj = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  if (obj.version === undefined) {
    const v1 = DocumentV1.parse(obj);
    const { text: _text, ...rest } = obj;
    return { ...rest, ...v1, version: DOCUMENT_VERSION, scenes: [blankScene(v1.text)] } as Record<string, unknown> & VideoDocument;
  }
  const shape = VideoDocument.parse(pickDocument(obj));
  return { ...obj, ...shape };
}

function pickDocument(obj: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(VideoDocument.shape);
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.includes(k)));
}

/** The whole narration: the scenes' texts joined by a blank line (also a scene job's `text`). */
export function documentText(doc: Pick<VideoDocument, 'scenes'>): string {
  return doc.scenes.map((s) => s.text.trim()).filter(Boolean).join('\n\n');
}

/** The first words of a document, for lists (drafts, outbox): one rule everywhere. */
export function excerptOf(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}
export const documentExcerpt = (doc: Pick<VideoDocument, 'scenes'>, max?: number): string => excerptOf(documentText(doc), max);

/** True when the document is one plain scene: it goes out as the original contract's request. */
export function isSingleScene(doc: Pick<VideoDocument, 'scenes'>): boolean {
  const [s, ...more] = doc.scenes;
  return !!s && more.length === 0 && s.background === null && s.presenter && s.avatar === null && s.minSeconds === null;
}

/**
 * The render request of a document. A single plain scene is the original contract's `text`
 * request, so an API without the `scenes` extension renders it; anything else sends `scenes`.
 * Needs a template and a voice (the caller checks them first).
 */
export function toRenderRequest(doc: VideoDocument, title?: string): RenderRequest {
  if (!doc.templateId || !doc.voiceId) throw new Error('a render request needs a template and a voice');
  const base = {
    templateId: doc.templateId, voiceId: doc.voiceId,
    ...(title?.trim() ? { title: title.trim() } : {}),
    ...(Object.keys(doc.params).length ? { params: doc.params } : {}),
  };
  if (isSingleScene(doc)) return { ...base, text: doc.scenes[0]!.text };
  const scenes: SceneInput[] = doc.scenes
    .map((s) => ({
      text: s.text,
      ...(s.presenter ? (s.avatar ? { avatar: s.avatar } : {}) : { avatar: null }),
      ...(s.background ? { background: s.background } : {}),
      transition: s.transition,
      ...(s.minSeconds !== null ? { minSeconds: s.minSeconds } : {}),
    }));
  return { ...base, scenes } as RenderRequest;
}

/** A request's whole narration, whichever form it has (a scene job's `text` is the same join). */
export function requestText(r: Pick<RenderRequest, 'text' | 'scenes'>): string {
  return r.text ?? (r.scenes ?? []).map((s) => s.text.trim()).join('\n\n');
}
