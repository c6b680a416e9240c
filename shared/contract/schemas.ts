// The render API contract (../shared/design/render-api.md) as zod schemas: the one source of
// truth for the server, the desktop client, the bridge and the UI forms.
import { z } from 'zod';
import { BREAK_MAX_SECONDS, breakProblems, withoutBreaks } from './breaks.js';

export const LIMITS = {
  textMaxChars: 5000,
  /** Extension `scenes`: a request's scenes and all their text together. */
  scenesMax: 50,
  totalTextMaxChars: 20000,
  /** A render request's body (scenes make it larger than a single text). */
  bodyMaxBytes: 256 * 1024,
  listMaxLimit: 100,
  listDefaultLimit: 20,
  createsPerMinute: 60,
  activeJobsPerUser: 500,
  idempotencyKeyMaxChars: 255,
  /** Extension `title`: a job's name (the draft's), shown in job lists and file names. */
  titleMaxChars: 200,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
  userIdPattern: /^[A-Za-z0-9._:@-]{1,128}$/,
  maxAttempts: 3,
} as const;

export const ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:5', '4:3'] as const;
export const AspectRatio = z.enum(ASPECT_RATIOS);
export type AspectRatio = z.infer<typeof AspectRatio>;

export const AVATAR_RANGES = {
  scale: { min: 0.1, max: 1.5 },
  x: { min: 0, max: 1 },
  y: { min: 0, max: 1 },
} as const;

// As checks (not refinements), so the OpenAPI document carries the bounds (minimum/maximum).
// z.number() refuses NaN and ±Infinity by itself.
const bounded = (name: keyof typeof AVATAR_RANGES) => {
  const { min, max } = AVATAR_RANGES[name];
  const message = `must be between ${min} and ${max}`;
  return z.number({ error: (i) => (i.input === undefined ? 'is required' : 'must be a number') }).min(min, message).max(max, message);
};

export const Avatar = z.strictObject({ scale: bounded('scale'), x: bounded('x'), y: bounded('y') });
export type Avatar = z.infer<typeof Avatar>;

// ---- Extension `output` (docs/render-api.md): the video's size, its captions and its thumbnail.
export const RESOLUTIONS = ['720p', '1080p'] as const;
export const Resolution = z.enum(RESOLUTIONS);
export type Resolution = z.infer<typeof Resolution>;
export const CAPTION_MODES = ['burned', 'file', 'none'] as const;
export const CaptionMode = z.enum(CAPTION_MODES);
export type CaptionMode = z.infer<typeof CaptionMode>;
/** Where burned captions sit; `auto` chooses the first of bottom, top, beside that keeps the presenter's face clear. */
export const CAPTION_POSITIONS = ['auto', 'bottom', 'top', 'beside'] as const;
export const CaptionPosition = z.enum(CAPTION_POSITIONS);
export type CaptionPosition = z.infer<typeof CaptionPosition>;
/** What a job of this server gets for an output field its request left out (the resolution: the server's setting). */
export const OUTPUT_DEFAULTS = { resolution: '720p', captions: 'burned', captionPosition: 'auto' } as const satisfies {
  resolution: Resolution; captions: CaptionMode; captionPosition: CaptionPosition;
};
/** Longest thumbnailAt accepted (seconds); a time past the video's end takes its last frame. */
export const THUMBNAIL_AT_MAX = 86_400;
export const ThumbnailAt = z
  .number({ error: 'must be a number' })
  .min(0, 'must not be negative')
  .max(THUMBNAIL_AT_MAX, `must be at most ${THUMBNAIL_AT_MAX}`)
  .describe('Extension "output": seconds into the video for the thumbnail frame');
const OUTPUT_PARAMS = {
  resolution: Resolution.optional().describe('Extension "output": 720p (default) or 1080p; the short side in pixels'),
  captions: CaptionMode.optional().describe('Extension "output": burned (default), file (WebVTT and SRT only, nothing drawn) or none'),
  captionPosition: CaptionPosition.optional().describe('Extension "output": where burned captions sit; auto (default) keeps the face clear'),
  thumbnailAt: ThumbnailAt.optional(),
};
/** The output fields of parameters, as a list (what an API without the extension is not sent). */
export const OUTPUT_PARAM_KEYS = Object.keys(OUTPUT_PARAMS) as (keyof typeof OUTPUT_PARAMS)[];

/**
 * Full, normalised parameters: what a Job carries. The output fields are optional so jobs stored
 * before them (and other APIs' jobs) still read; this server fills all but thumbnailAt for new jobs.
 */
export const RenderParams = z.strictObject({ aspectRatio: AspectRatio, avatar: Avatar, ...OUTPUT_PARAMS });
export type RenderParams = z.infer<typeof RenderParams>;

/** Parameters as a request may send them: every field optional, filled from template defaults. */
export const RenderParamsInput = z.strictObject({
  aspectRatio: AspectRatio.optional(),
  avatar: z
    .strictObject({ scale: bounded('scale').optional(), x: bounded('x').optional(), y: bounded('y').optional() })
    .optional(),
  ...OUTPUT_PARAMS,
});
export type RenderParamsInput = z.infer<typeof RenderParamsInput>;

export const VOICE_ID_LOCALE_PATTERN = /^[a-z]{2,3}-[A-Z]{2}-[A-Za-z]+$/;
export const VOICE_ID_DIGITS_PATTERN = /^[0-9]+$/;

/** An unpaired UTF-16 surrogate: valid in a JS string and a JSON escape, but not Unicode text (UTF-8 cannot hold it). */
const LONE_SURROGATE = /\p{Surrogate}/u;
const WELL_FORMED = 'must be valid Unicode text (it holds an unpaired surrogate, \\uD800–\\uDFFF)';

// The length counts the trimmed text; the OpenAPI document states the (stricter) untrimmed
// bound, and the letter rule as a pattern, so whatever it calls valid is valid here.
// Pause tags (extension `sound`, breaks.ts) are not text: neither counted nor a letter.
export const ScriptText = z
  .string({ error: 'must be a string' })
  .refine((s) => s.trim().length >= 1, 'must not be empty')
  .refine((s) => withoutBreaks(s).trim().length <= LIMITS.textMaxChars, `must be at most ${LIMITS.textMaxChars} characters`)
  .refine((s) => /[\p{L}\p{N}]/u.test(withoutBreaks(s)), 'must contain at least one letter or digit')
  .refine((s) => !LONE_SURROGATE.test(s), WELL_FORMED)
  .superRefine((s, ctx) => {
    for (const message of breakProblems(s)) ctx.addIssue({ code: 'custom', message });
  })
  .meta({ minLength: 1, maxLength: LIMITS.textMaxChars, pattern: '[\\p{L}\\p{N}]' });

/** Extension `title` (docs/server.md): optional; sent only to APIs whose health lists it. */
export const JobTitle = z
  .string({ error: 'must be a string' })
  .refine((s) => s.trim().length >= 1, 'must not be empty')
  .refine((s) => s.trim().length <= LIMITS.titleMaxChars, `must be at most ${LIMITS.titleMaxChars} characters`)
  .refine((s) => !LONE_SURROGATE.test(s), WELL_FORMED)
  // The document states the stricter untrimmed bound and "not only white space" as a pattern.
  .meta({ minLength: 1, maxLength: LIMITS.titleMaxChars, pattern: '\\S' })
  .describe(`Extension "title": the job's name, 1–${LIMITS.titleMaxChars} characters after trimming (docs/server.md)`);

/** A trimmed name of 1–max characters; the document states "not only white space" as a pattern. */
const nonBlank = (max: number) =>
  z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`).meta({ pattern: '\\S' });

/** The paging and search fields every list query shares (values arrive as strings). */
const LIST_PAGE_QUERY = {
  q: z.string().max(500, 'must be at most 500 characters').optional(),
  limit: z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= LIMITS.listMaxLimit, `must be between 1 and ${LIMITS.listMaxLimit}`)
    .optional(),
  cursor: z.string().max(200).optional(),
};

/** Extension `assets`: what a creator's file is. */
export const ASSET_KINDS = ['image', 'video', 'audio', 'document', 'font'] as const;
export const AssetKind = z.enum(ASSET_KINDS);
export type AssetKind = z.infer<typeof AssetKind>;
/** The media types an upload may declare, and the kind each is. */
export const ASSET_MEDIA_TYPES = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'video/mp4': 'video',
  'video/webm': 'video',
  'video/quicktime': 'video',
  'audio/mpeg': 'audio',
  'audio/wav': 'audio',
  'audio/mp4': 'audio',
  'audio/ogg': 'audio',
  'application/pdf': 'document',
  // Extension `brand` (refinement, docs/render-api.md): a font the creator brings for captions.
  'font/ttf': 'font',
  'font/otf': 'font',
  'font/woff2': 'font',
} as const satisfies Record<string, AssetKind>;
export type AssetMediaType = keyof typeof ASSET_MEDIA_TYPES;
export const assetKindOf = (mediaType: string): AssetKind | null =>
  (ASSET_MEDIA_TYPES as Record<string, AssetKind>)[mediaType.split(';')[0]!.trim().toLowerCase()] ?? null;

const MiB = 1024 * 1024;
/** Upload limits (defaults; a server may be configured lower). */
export const ASSET_LIMITS = {
  maxBytes: { image: 25 * MiB, audio: 100 * MiB, document: 100 * MiB, video: 1024 * MiB, font: 20 * MiB } satisfies Record<AssetKind, number>,
  quotaBytes: 5 * 1024 * MiB,
  maxPixels: 64_000_000,
  maxSide: 16_384,
  nameMaxBytes: 255,
} as const;

export const ASSET_ID_PATTERN = /^ast_[0-9A-HJKMNP-TV-Z]{26}$/;
export const AssetId = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64, 'must be at most 64 characters');

export const Asset = z.object({
  id: z.string(),
  name: z.string(),
  kind: AssetKind,
  mediaType: z.string(),
  sizeBytes: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  durationSeconds: z.number().nullable(),
  pages: z.number().int().nullable(),
  createdAt: z.string(),
  contentUrl: z.string(),
  thumbnailUrl: z.string(),
});
export type Asset = z.infer<typeof Asset>;
export const AssetList = z.object({ assets: z.array(Asset), nextCursor: z.string().nullable() });
export type AssetList = z.infer<typeof AssetList>;
/** Query of GET /api/assets. Values arrive as strings. */
export const AssetListQuery = z.strictObject({
  kind: AssetKind.optional(),
  ...LIST_PAGE_QUERY,
});
export type AssetListQuery = z.output<typeof AssetListQuery>;

/** Extension `scenes`: how a scene enters. */
export const TRANSITIONS = ['cut', 'fade', 'slide'] as const;
export const Transition = z.enum(TRANSITIONS);
export type Transition = z.infer<typeof Transition>;
export const BACKGROUND_FITS = ['cover', 'contain'] as const;
export const BackgroundFit = z.enum(BACKGROUND_FITS);
export type BackgroundFit = z.infer<typeof BackgroundFit>;
/** Seconds a fade or slide takes (it starts at the scene's first frame). */
export const TRANSITION_SECONDS = 0.5;
/** A scene's optional minimum length, in seconds. */
export const SCENE_MIN_SECONDS_MAX = 600;

/** A scene's background: one of the creator's assets (an image, a video, or one page of a document). */
export const SceneBackground = z.strictObject({
  assetId: AssetId,
  page: z.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'pages count from 1').max(100_000).optional(),
  fit: BackgroundFit.default('cover'),
  trimStart: z.number({ error: 'must be a number' }).min(0, 'must not be negative').max(86_400).optional(),
  loop: z.boolean({ error: 'must be true or false' }).optional(),
});
export type SceneBackground = z.infer<typeof SceneBackground>;
export type SceneBackgroundInput = z.input<typeof SceneBackground>;

export const PresenterId = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64, 'must be at most 64 characters');

/** A scene as a request sends it: missing fields come from the request's top level, then the template. */
export const SceneInput = z.strictObject({
  text: ScriptText,
  templateId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64).optional(),
  voiceId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64).optional(),
  presenterId: PresenterId.optional(),
  /** null: no presenter in this scene. */
  avatar: RenderParamsInput.shape.avatar.unwrap().nullable().optional(),
  background: SceneBackground.nullable().optional(),
  transition: Transition.optional(),
  minSeconds: z.number({ error: 'must be a number' }).min(0, 'must not be negative').max(SCENE_MIN_SECONDS_MAX, `must be at most ${SCENE_MIN_SECONDS_MAX}`).optional(),
});
export type SceneInput = z.input<typeof SceneInput>;

/** A scene as a Job carries it: every field resolved. */
export const Scene = z.object({
  text: z.string(),
  templateId: z.string(),
  voiceId: z.string(),
  presenterId: z.string(),
  avatar: Avatar.nullable(),
  background: z.object({
    assetId: z.string(),
    page: z.number().int().optional(),
    fit: BackgroundFit,
    trimStart: z.number().optional(),
    loop: z.boolean().optional(),
  }).nullable(),
  transition: Transition,
  minSeconds: z.number().optional(),
});
export type Scene = z.infer<typeof Scene>;

// ---- Extension `sound`: pauses, pronunciation, music.
export const SOUND_LIMITS = {
  breakMaxSeconds: BREAK_MAX_SECONDS,
  lexiconMax: 500,
  lexiconTextMaxChars: 100,
  lexiconSayMaxChars: 200,
  musicVolumeDefault: 0.25,
  musicDuckDefault: true,
  /** The final mix: integrated loudness (LUFS) and true-peak ceiling (dBTP). */
  loudnessLufs: -14,
  truePeakDbtp: -1,
} as const;
/**
 * Every video's start and end (seconds): the presenter at rest before the first word and after
 * the last, the music fading in and out. Part of the video's length and of the app's estimate.
 */
export const VIDEO_EDGES = { leadInSeconds: 0.8, tailSeconds: 1.5 } as const;
export const LexiconEntry = z.strictObject({
  text: nonBlank(SOUND_LIMITS.lexiconTextMaxChars),
  say: nonBlank(SOUND_LIMITS.lexiconSayMaxChars),
});
export type LexiconEntry = z.infer<typeof LexiconEntry>;
export const Lexicon = z.array(LexiconEntry).max(SOUND_LIMITS.lexiconMax, `must hold at most ${SOUND_LIMITS.lexiconMax} entries`);
export const MusicInput = z.strictObject({
  assetId: AssetId,
  volume: z.number({ error: 'must be a number' }).min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
  duck: z.boolean({ error: 'must be true or false' }).optional(),
});
export type MusicInput = z.infer<typeof MusicInput>;
/** Refinement of `sound`: POST /api/sound/preview, a scene's narration with the music under it (MP3). */
export const SOUND_PREVIEW_MAX_CHARS = 600;
export const SoundPreviewRequest = z.strictObject({
  text: ScriptText.refine((s) => s.trim().length <= SOUND_PREVIEW_MAX_CHARS, `must be at most ${SOUND_PREVIEW_MAX_CHARS} characters for a preview`),
  voiceId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64),
  music: MusicInput,
});
export type SoundPreviewRequest = z.infer<typeof SoundPreviewRequest>;
/** Music as a Job carries it: every field resolved. */
export const Music = z.object({ assetId: z.string(), volume: z.number(), duck: z.boolean() });
export type Music = z.infer<typeof Music>;

// ---- Extensions `brand` and `output`.
export const LOGO_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export const LogoPosition = z.enum(LOGO_POSITIONS);
export type LogoPosition = z.infer<typeof LogoPosition>;
export const CAPTION_STYLES = ['box', 'outline', 'highlight'] as const;
export const CaptionStyle = z.enum(CAPTION_STYLES);
export type CaptionStyle = z.infer<typeof CaptionStyle>;
export const BRAND_LIMITS = { logoSizeMin: 0.05, logoSizeMax: 0.3 } as const;
export const HexColor = z.string({ error: 'must be a string' }).regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour written #RRGGBB');
/** A bundled font's id (BRAND_FONTS in shared/scene/fonts.ts) or the id of a font asset of the caller's. */
export const BrandFont = z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64, 'must be at most 64 characters');
export const BrandLogo = z.strictObject({
  assetId: AssetId,
  position: LogoPosition,
  size: z.number({ error: 'must be a number' }).min(BRAND_LIMITS.logoSizeMin, `must be between ${BRAND_LIMITS.logoSizeMin} and ${BRAND_LIMITS.logoSizeMax}`).max(BRAND_LIMITS.logoSizeMax, `must be between ${BRAND_LIMITS.logoSizeMin} and ${BRAND_LIMITS.logoSizeMax}`),
});
export type BrandLogo = z.infer<typeof BrandLogo>;
/**
 * Extension `brand`: the company's look over every scene. A Job carries it as the request sent
 * it (ids checked), so a render never depends on the app's settings later.
 */
export const Brand = z.strictObject({
  logo: BrandLogo.optional(),
  accentColor: HexColor.optional(),
  font: BrandFont.optional(),
  captionStyle: CaptionStyle.optional(),
});
export type Brand = z.infer<typeof Brand>;
export const RenderRequest = z
  .strictObject({
    /** Either `text` (the original contract) or `scenes` (extension `scenes`), never both. */
    text: ScriptText.optional(),
    scenes: z.array(SceneInput).min(1, 'must hold at least one scene').max(LIMITS.scenesMax, `must hold at most ${LIMITS.scenesMax} scenes`).optional(),
    title: JobTitle.optional(),
    templateId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64),
    voiceId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(64),
    presenterId: PresenterId.optional(),
    params: RenderParamsInput.optional(),
    /** Extension `sound`: how the voice says words, captions keep them as written. */
    lexicon: Lexicon.optional(),
    /** Extension `brand`. */
    brand: Brand.optional(),
    /** Extension `sound`: music under the narration (an audio asset of the caller's). */
    music: MusicInput.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.text !== undefined && r.scenes !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['scenes'], message: 'send either text or scenes, not both' });
    } else if (r.text === undefined && r.scenes === undefined) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'is required (or scenes)' });
    }
    if (r.scenes) {
      const total = r.scenes.reduce((n, sc) => n + (typeof sc.text === 'string' ? withoutBreaks(sc.text).trim().length : 0), 0);
      if (total > LIMITS.totalTextMaxChars) {
        ctx.addIssue({ code: 'custom', path: ['scenes'], message: `the scenes' text must be at most ${LIMITS.totalTextMaxChars} characters in all` });
      }
    }
  });
export type RenderRequest = z.infer<typeof RenderRequest>;

export const JOB_STATUSES = ['queued', 'rendering', 'completed', 'failed', 'canceled'] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;
export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'canceled'];
export const isTerminal = (s: JobStatus): boolean => TERMINAL_STATUSES.includes(s);

export const JobOutput = z.object({
  videoUrl: z.string(),
  /** Extension `output`: empty for a job rendered with `captions: "none"` (it has no caption file). */
  captionsUrl: z.string(),
  thumbnailUrl: z.string(),
  durationSeconds: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  sizeBytes: z.number().int(),
});
export type JobOutput = z.infer<typeof JobOutput>;

/** Extension `output`: body of POST /api/jobs/{id}/thumbnail (the frame at `at` seconds becomes the thumbnail). */
export const ThumbnailRequest = z.strictObject({ at: ThumbnailAt });
export type ThumbnailRequest = z.infer<typeof ThumbnailRequest>;

export const JobError = z.object({ code: z.string(), message: z.string() });
export type JobError = z.infer<typeof JobError>;

/**
 * Something about the request worth the creator's attention that does not stop the render:
 * `language_mismatch` — the script's detected language (`language`, ISO 639-1) is not the
 * voice's (it will be read with the voice's pronunciation); `unreadable_characters` — the voice
 * speaks the script's language (`language`) but cannot read some of its writing (espeak-ng's
 * Japanese reads kana, and says "Chinese letter" for every kanji).
 */
export const JobWarning = z.object({
  code: z.enum(['language_mismatch', 'unreadable_characters']),
  message: z.string(),
  language: z.string(),
  voiceLocale: z.string(),
});
export type JobWarning = z.infer<typeof JobWarning>;

export const JOB_ID_PATTERN = /^job_[0-9A-HJKMNP-TV-Z]{26}$/;

export const Job = z.object({
  id: z.string(),
  status: JobStatus,
  /** Extension `title`: null when the request had none; absent from APIs without the extension. */
  title: z.string().nullable().optional().describe('Extension "title": the job\'s name, or null (docs/server.md)'),
  text: z.string(),
  templateId: z.string(),
  voiceId: z.string(),
  params: RenderParams,
  progress: z.number().min(0).max(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  output: JobOutput.nullable(),
  error: JobError.nullable(),
  /** Warnings found when the job was created (jobs stored before warnings existed read as none). */
  warnings: z.array(JobWarning).default([]),
  /** Extension `scenes`: the normalised scenes, present when the request sent scenes. */
  scenes: z.array(Scene).optional(),
  /** Extension `presenters`: the request's presenter (absent: the template's suggestion); each scene carries its own, resolved. */
  presenterId: z.string().optional(),
  /** Extension `sound`: the request's pronunciation lexicon, present when it sent one. */
  lexicon: z.array(z.object({ text: z.string(), say: z.string() })).optional(),
  /** Extension `brand`: the request's brand, present when it sent one. */
  brand: Brand.optional(),
  /** Extension `sound`: the music under the narration (absent: none). */
  music: Music.optional(),
});
export type Job = z.infer<typeof Job>;

/** Jobs per status: one field for each of JOB_STATUSES. */
export const StatusCounts = z.object(
  Object.fromEntries(JOB_STATUSES.map((s) => [s, z.number().int()])) as Record<JobStatus, z.ZodNumber>,
);
export type StatusCounts = z.infer<typeof StatusCounts>;
/** Every status at zero. */
export const zeroCounts = (): StatusCounts => Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as StatusCounts;

export const JobList = z.object({ jobs: z.array(Job), nextCursor: z.string().nullable(), counts: StatusCounts });
export type JobList = z.infer<typeof JobList>;

/** Query of GET /api/jobs. Values arrive as strings. */
export const JobListQuery = z.strictObject({
  status: z
    .string()
    .transform((s, ctx) => {
      const parts = s.split(',').map((p) => p.trim()).filter(Boolean);
      for (const p of parts) {
        if (!(JOB_STATUSES as readonly string[]).includes(p)) {
          ctx.addIssue({ code: 'custom', message: `unknown status "${p}"; one of ${JOB_STATUSES.join(', ')}` });
          return z.NEVER;
        }
      }
      return parts as JobStatus[];
    })
    .optional(),
  ...LIST_PAGE_QUERY,
});
export type JobListQuery = z.output<typeof JobListQuery>;

/** The presenter a template suggests (any presenter can be used with any template, `presenterId`). */
export const TemplatePresenter = z.object({ id: z.string(), name: z.string() });
export const Template = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  presenter: TemplatePresenter,
  aspectRatios: z.array(AspectRatio),
  defaults: RenderParams,
  /**
   * Refinement of the contract: the placement at each aspect ratio where it differs from
   * `defaults.avatar` (a placement made for 16:9 would cut the presenter off at 9:16). A
   * request that names an aspect ratio and no placement gets that ratio's.
   */
  placements: z.partialRecord(AspectRatio, Avatar).optional(),
  thumbnailUrl: z.string(),
});
export type Template = z.infer<typeof Template>;
/** A template's placement at an aspect ratio: its own for that ratio, else its default one. */
export const templatePlacement = (t: Pick<Template, 'defaults' | 'placements'>, ratio: AspectRatio): Avatar => t.placements?.[ratio] ?? t.defaults.avatar;
export const TemplateList = z.object({ templates: z.array(Template) });
export type TemplateList = z.infer<typeof TemplateList>;

export const Gender = z.enum(['female', 'male', 'neutral']);
export type Gender = z.infer<typeof Gender>;
/**
 * The speech engine behind a voice: espeak-ng (formant), SVOX Pico (diphone), Flite (CMU's
 * clustergen, statistical parametric), Piper and Kokoro (neural, downloaded on demand).
 */
export const VoiceEngine = z.enum(['espeak', 'pico', 'flite', 'piper', 'kokoro']);
export type VoiceEngine = z.infer<typeof VoiceEngine>;
/** How natural a voice sounds, lowest first: basic (robotic, fastest), standard, natural (neural). */
export const VoiceQuality = z.enum(['basic', 'standard', 'natural']);
export type VoiceQuality = z.infer<typeof VoiceQuality>;
/** How fast a voice speaks: spoken units (words; Chinese syllables; Japanese morae) per second, and the pause per sentence. */
export const Pace = z.object({ unitsPerSecond: z.number().positive(), sentencePauseSeconds: z.number().min(0) });
export type Pace = z.infer<typeof Pace>;
export const Voice = z.object({
  id: z.string(),
  name: z.string(),
  locale: z.string(),
  gender: Gender,
  /** Refinement of the contract: this server always sends both; other render APIs may not. */
  engine: VoiceEngine.optional(),
  quality: VoiceQuality.optional(),
  /** Bytes to download before first use (a neural voice pack); absent when the voice ships with the app. */
  downloadBytes: z.number().int().positive().optional(),
  /** A downloadable voice's terms (its data's licence and what it asks of a published video). */
  licence: z.string().optional(),
  /** Refinement of the contract: the voice's measured pace, which the app's length estimate reads (shared/language/pace.ts). */
  pace: Pace.optional(),
  sampleUrl: z.string(),
  /** Refinement of the contract: the voice's other id forms (e.g. the all-digits "101"); both work as voiceId. */
  aliases: z.array(z.string()).optional(),
});
export type Voice = z.infer<typeof Voice>;
export const VoiceList = z.object({ voices: z.array(Voice) });
/**
 * A voice's download state (GET/POST /api/voices/{id}/pack): voices that ship with the app are
 * `builtin`; a neural voice pack is `missing` until installed (POST starts the download, or the
 * first render with the voice does), then `downloading` with its progress, `installed` (verified
 * by size and SHA-256, kept in the studio's cache, usable offline) or `failed` with the reason.
 */
export const VoicePackStatus = z.object({
  state: z.enum(['builtin', 'missing', 'downloading', 'installed', 'failed']),
  receivedBytes: z.number().int().min(0).optional(),
  totalBytes: z.number().int().min(0).optional(),
  error: z.string().optional(),
});
export type VoicePackStatus = z.infer<typeof VoicePackStatus>;
export type VoiceList = z.infer<typeof VoiceList>;

// ---- Extension `presenters`: who speaks.
export const PRESENTER_KINDS = ['vector', 'photo'] as const;
export const PresenterKind = z.enum(PRESENTER_KINDS);
export type PresenterKind = z.infer<typeof PresenterKind>;
export const PRESENTER_LIMITS = {
  nameMaxChars: 100,
  /** Face Mesh without and with the iris points. */
  landmarkCounts: [468, 478] as readonly number[],
  /**
   * The face's height in the portrait, in pixels, below which it cannot be animated: the height
   * of the mesh's points (mid-forehead to chin), which is about 0.85 of the face's own height.
   */
  minFacePixels: 100,
  perUser: 100,
} as const;
/** Ids of photo presenters (the built-ins' are their names). */
export const PHOTO_PRESENTER_ID_PATTERN = /^pht_[0-9a-z]{1,40}$/;
export const Presenter = z.object({
  id: z.string(),
  name: z.string(),
  kind: PresenterKind,
  builtIn: z.boolean(),
  thumbnailUrl: z.string(),
  /** Refinement of the contract: how the presenter reads, so a client can suggest voices that suit. */
  gender: Gender.optional(),
  /**
   * Refinement of the contract: a photo presenter's own parts, so a client draws it as the video
   * does (the app's preview): the portrait and cut-out mask assets and the Face Mesh points
   * (x, y as fractions of the portrait). Absent on the built-ins.
   */
  portrait: z
    .object({ assetId: z.string(), maskAssetId: z.string().optional(), landmarks: z.array(z.tuple([z.number(), z.number()])) })
    .optional(),
});
export type Presenter = z.infer<typeof Presenter>;
export const PresenterList = z.object({ presenters: z.array(Presenter) });
export type PresenterList = z.infer<typeof PresenterList>;
const inImage = z.number({ error: 'must be a number' }).min(0, 'must be within the image (0 to 1)').max(1, 'must be within the image (0 to 1)');
const depth = z.number({ error: 'must be a number' }).min(-10, 'must be between -10 and 10').max(10, 'must be between -10 and 10');
/** One Face Mesh point: x and y as fractions of the image, z (depth, in about the same units) optional. */
export const Landmark = z.tuple([inImage, inImage, depth.optional()], { error: 'must be [x, y] or [x, y, z]' });
export type Landmark = z.infer<typeof Landmark>;
export const PresenterCreate = z.strictObject({
  name: nonBlank(PRESENTER_LIMITS.nameMaxChars),
  assetId: AssetId,
  landmarks: z
    .array(Landmark, { error: 'must be an array of [x, y] points' })
    // The bounds put the count in the document; the rule is one of the two counts.
    .min(Math.min(...PRESENTER_LIMITS.landmarkCounts), `must hold ${PRESENTER_LIMITS.landmarkCounts.join(' or ')} points (MediaPipe Face Mesh)`)
    .max(Math.max(...PRESENTER_LIMITS.landmarkCounts), `must hold ${PRESENTER_LIMITS.landmarkCounts.join(' or ')} points (MediaPipe Face Mesh)`)
    .refine((a) => a.length > Math.min(...PRESENTER_LIMITS.landmarkCounts) && a.length < Math.max(...PRESENTER_LIMITS.landmarkCounts) ? PRESENTER_LIMITS.landmarkCounts.includes(a.length) : true, `must hold ${PRESENTER_LIMITS.landmarkCounts.join(' or ')} points (MediaPipe Face Mesh)`),
  /**
   * Refinement of the contract: the cut-out look. An image asset of the portrait's size whose
   * alpha (or, without alpha, brightness) is the person (the app makes it with MediaPipe Selfie
   * Segmentation); absent: the portrait is shown in a framed card.
   */
  maskAssetId: AssetId.optional(),
});
export type PresenterCreate = z.infer<typeof PresenterCreate>;

/** Extensions of the contract this implementation offers (docs/server.md); clients read them from GET /api/health. */
export const API_EXTENSIONS = ['title', 'assets', 'scenes', 'output', 'brand', 'sound', 'presenters'] as const;
export type ApiExtension = (typeof API_EXTENSIONS)[number];
export const Health = z.object({ status: z.literal('ok'), version: z.string(), extensions: z.array(z.string()).optional().describe('Extensions of the contract offered, e.g. "title"') });
export type Health = z.infer<typeof Health>;

export const ERROR_STATUS = {
  invalid_json: 400,
  user_required: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  not_ready: 404,
  method_not_allowed: 405,
  invalid_transition: 409,
  asset_in_use: 409,
  presenter_in_use: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  validation_failed: 422,
  rate_limited: 429,
  quota_exceeded: 429,
  internal_error: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const ErrorDetail = z.object({ path: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof ErrorDetail>;
export const ErrorBody = z.object({
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.array(ErrorDetail).optional(),
    requestId: z.string(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Job failure codes the engine and queue record in `job.error.code`. */
export const JOB_ERROR_CODES = [
  'engine_unavailable',
  'worker_lost',
  'speech_failed',
  'encode_failed',
  'invalid_input',
  'internal_error',
] as const;
