// The one document shape of a video: what a draft saves, what an outbox entry waits with and
// what becomes a render request. Video-wide settings plus `scenes[]`, versioned; files written
// by an earlier version are migrated on read (`readVideoDocument`).
import { z } from 'zod';
import {
  AspectRatio, Avatar, LIMITS, PresenterId, RenderParamsInput, SCENE_MIN_SECONDS_MAX, SceneBackground, Transition,
  type Job, type RenderRequest, type SceneInput,
} from './schemas.js';

export const DOCUMENT_VERSION = 3;

/**
 * Placements kept for the aspect ratios the video is not at now (the current one is the
 * placement in use): switching back restores the creator's; a ratio without one takes the
 * template's for it, so a placement made for 16:9 never cuts the presenter off at 9:16.
 */
export const Placements = z.partialRecord(AspectRatio, Avatar);
export type Placements = z.infer<typeof Placements>;

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
  /** This scene's own placements at the other aspect ratios (none there: the video's). */
  placements: Placements,
  /** This scene's own presenter; null: the video's. */
  presenterId: PresenterId.nullable(),
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
  /** The placements at the other aspect ratios (params.avatar is the current one's). */
  placements: Placements,
  /** Who speaks; null: the template's suggestion. */
  presenterId: PresenterId.nullable(),
  scenes: z.array(DocumentScene).min(1).max(LIMITS.scenesMax),
});
export type VideoDocument = z.infer<typeof VideoDocument>;

/** Version 2 (scenes, one placement for every aspect ratio, the template's presenter). */
const DocumentV2 = z.object({ version: z.literal(2), scenes: z.array(z.record(z.string(), z.unknown())) }).loose();

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
  return { id: newSceneId(), text, background: null, presenter: true, avatar: null, placements: {}, presenterId: null, transition: 'cut', minSeconds: null };
}

/** The id the one scene of a migrated version-1 document gets: the same at every read. */
const V1_SCENE_ID = 's_1';

/**
 * A saved document of any version in the current shape, not yet checked (a file's other fields,
 * such as a draft's id and dates, stay as they were). Anything it does not recognise is given back
 * unchanged, for the caller's schema to refuse.
 */
export function upgradeDocument(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const obj = raw as Record<string, unknown>;
  if (obj.version === undefined && typeof obj.text === 'string') {
    const { text, ...rest } = obj;
    return { ...rest, version: DOCUMENT_VERSION, placements: {}, presenterId: null, scenes: [{ ...blankScene(text), id: V1_SCENE_ID }] };
  }
  const v2 = DocumentV2.safeParse(obj);
  if (v2.success) {
    // Version 3: placements per aspect ratio and a presenter of the creator's choice, none yet.
    return { ...obj, version: DOCUMENT_VERSION, placements: {}, presenterId: null, scenes: v2.data.scenes.map((sc) => ({ ...sc, placements: {}, presenterId: null })) };
  }
  return raw;
}

/**
 * Reads a saved document of any version into the current shape (other fields of the file, such as a
 * draft's id and dates, are kept as they were). Throws a ZodError when it is none.
 */
export function migrateDocument(raw: unknown): Record<string, unknown> & VideoDocument {
  const obj = upgradeDocument(raw);
  if (obj && typeof obj === 'object' && (obj as Record<string, unknown>).version === undefined) DocumentV1.parse(obj);
  const all = (obj && typeof obj === 'object' ? obj : {}) as Record<string, unknown>;
  return { ...all, ...VideoDocument.parse(pickDocument(all)) };
}

function pickDocument(obj: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(VideoDocument.shape);
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.includes(k)));
}

/** The whole narration: the scenes' texts joined by a blank line (also a scene job's `text`). */
export function documentText(doc: Pick<VideoDocument, 'scenes'>): string {
  return doc.scenes.map((s) => s.text.trim()).filter(Boolean).join('\n\n');
}

/**
 * The first words of a text on one line, for lists, titles, notifications and file names: one
 * rule everywhere. At most `max` characters (code points) with the mark, cut between words
 * (inside one only when it is the first), trailing punctuation dropped, then `mark` added.
 */
export function excerptOf(text: string, max = 120, mark = '…'): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  if (chars.length <= max) return flat;
  const room = Math.max(1, max - [...mark].length);
  const cut = chars.slice(0, room + 1).join('');
  const space = cut.lastIndexOf(' ');
  const words = space > 0 ? cut.slice(0, space) : chars.slice(0, room).join('');
  return `${words.replace(/[\s,.;:–—-]+$/u, '')}${mark}`;
}
export const documentExcerpt = (doc: Pick<VideoDocument, 'scenes'>, max?: number): string => excerptOf(documentText(doc), max);

/** True when the document is one plain scene: it goes out as the original contract's request. */
export function isSingleScene(doc: Pick<VideoDocument, 'scenes'>): boolean {
  const [s, ...more] = doc.scenes;
  return !!s && more.length === 0 && s.background === null && s.presenter && s.avatar === null && s.presenterId === null && s.minSeconds === null;
}

/**
 * The render request of a document. A single plain scene is the original contract's `text`
 * request, so an API without the `scenes` extension renders it; anything else sends `scenes`.
 * Needs a template and a voice (the caller checks them first). `presenters: false` (an API
 * without the extension): the chosen presenters stay out, each template's speaks.
 */
export function toRenderRequest(doc: VideoDocument, title?: string, opts: { presenters?: boolean } = {}): RenderRequest {
  if (!doc.templateId || !doc.voiceId) throw new Error('a render request needs a template and a voice');
  const presenters = opts.presenters !== false;
  const base = {
    templateId: doc.templateId, voiceId: doc.voiceId,
    ...(title?.trim() ? { title: title.trim() } : {}),
    ...(presenters && doc.presenterId ? { presenterId: doc.presenterId } : {}),
    ...(Object.keys(doc.params).length ? { params: doc.params } : {}),
  };
  if (isSingleScene(doc)) return { ...base, text: doc.scenes[0]!.text };
  const scenes: SceneInput[] = doc.scenes
    .map((s) => ({
      text: s.text,
      ...(presenters && s.presenterId ? { presenterId: s.presenterId } : {}),
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

/** The document a request came from (CSV rows, the outbox): its scenes, or its text as one scene. */
export function documentOfRequest(r: RenderRequest, name: string): VideoDocument {
  // A request's scene may place the presenter in part; the document keeps whole placements.
  const placed = (a: SceneInput['avatar']) => (a ? (Avatar.safeParse({ ...r.params?.avatar, ...a }).data ?? null) : null);
  const scenes = r.scenes?.map((s, i): DocumentScene => ({
    id: `s_${i + 1}`,
    text: s.text,
    background: s.background ? SceneBackground.parse(s.background) : null,
    presenter: s.avatar !== null,
    avatar: placed(s.avatar),
    placements: {},
    presenterId: s.presenterId ?? null,
    transition: s.transition ?? 'cut',
    minSeconds: s.minSeconds ?? null,
  }));
  return {
    version: DOCUMENT_VERSION, name, templateId: r.templateId, voiceId: r.voiceId, params: r.params ?? {}, placements: {},
    presenterId: r.presenterId ?? null, scenes: scenes ?? [{ ...blankScene(r.text ?? ''), id: 's_1' }],
  };
}

/**
 * The document of a finished or queued job (duplicate, retry): its scenes where it has them, else
 * its text as one scene. A scene placed as the video places it keeps no placement of its own.
 */
export function documentOfJob(job: Pick<Job, 'text' | 'templateId' | 'voiceId' | 'params' | 'scenes' | 'presenterId'>, name: string): VideoDocument {
  const videoAvatar = JSON.stringify(job.params.avatar ?? null);
  const videoPresenter = job.presenterId ?? null;
  const scenes = job.scenes?.length
    ? job.scenes.map((s, i): DocumentScene => ({
        id: `s_${i + 1}`,
        text: s.text,
        background: s.background,
        presenter: s.avatar !== null,
        avatar: s.avatar && JSON.stringify(s.avatar) !== videoAvatar ? s.avatar : null,
        placements: {},
        // A scene speaking with the video's presenter has none of its own (the job resolved every scene's).
        presenterId: videoPresenter !== null && s.presenterId === videoPresenter ? null : s.presenterId,
        transition: s.transition,
        minSeconds: s.minSeconds ?? null,
      }))
    : [{ ...blankScene(job.text), id: 's_1' }];
  return {
    version: DOCUMENT_VERSION, name, templateId: job.templateId || null, voiceId: job.voiceId || null, params: job.params, placements: {},
    presenterId: videoPresenter, scenes,
  };
}
