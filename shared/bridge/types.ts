// Shapes that cross the bridge between the renderer and the privileged side. The API key is
// never among them: the renderer may ask whether a key is set and hand a new one in, no more.
import { z } from 'zod';
import {
  type Asset,
  type LexiconEntry,
  AspectRatio,
  Job,
  JobList,
  JobListQuery,
  JobStatus,
  LIMITS,
  type Presenter,
  RenderRequest,
  Template,
  upgradeDocument,
  VideoDocument,
  Voice,
} from '../contract/index.js';


export const BRIDGE_ERROR_CODES = [
  'offline', // the render API could not be reached
  'unauthorized',
  'forbidden',
  'not_found',
  'not_ready',
  'invalid_input', // the bridge call's own input failed validation
  'validation_failed',
  'invalid_transition',
  'idempotency_conflict',
  'rate_limited',
  'quota_exceeded',
  'payload_too_large', // a file over the render API's (or the web shell's) limit for its kind
  'unsupported_media_type', // a file whose type the render API does not take, or that is not what it says
  'asset_in_use', // an asset a queued or rendering job still needs
  'unsupported', // the active render API lacks this feature
  'unreadable_response', // a foreign render API answered something the normaliser cannot read
  'no_key',
  'keychain_unavailable',
  'canceled',
  'range_not_satisfiable', // a media byte range outside the file
  'io_error',
  'internal_error',
] as const;
export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];
export const BridgeError = z.object({
  code: z.string().describe('a BridgeErrorCode, or the code a foreign render API answered'),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  retryAfterSeconds: z.number().optional(),
});
export type BridgeError = Omit<z.infer<typeof BridgeError>, 'code'> & { code: BridgeErrorCode | string };

export const KeyHeader = z.enum(['bearer', 'x-api-key']);
export type KeyHeader = z.infer<typeof KeyHeader>;

export const ProfileKind = z.enum(['local', 'remote', 'env']);
export type ProfileKind = z.infer<typeof ProfileKind>;
export interface Capabilities {
  cancel: boolean;
  delete: boolean;
  events: boolean;
  catalogs: boolean;
  media: boolean;
  idempotency: boolean;
  /** The `title` extension (docs/server.md): the API keeps a job's name. */
  title: boolean;
  /** The `assets` extension: the creator's own files (media library). */
  assets: boolean;
  /** The `scenes` extension: a video as a list of scenes. */
  scenes: boolean;
  /** The `presenters` extension: any presenter with any template (GET /api/presenters, presenterId). */
  presenters: boolean;
  /** The `output` extension: resolution, caption mode and position, the thumbnail chosen after the render. */
  output: boolean;
  /** The `brand` extension: a logo, accent colour, caption style and font over the video. */
  brand: boolean;
  /** The `sound` extension: music under the narration, pauses, a pronunciation lexicon, SRT captions. */
  sound: boolean;
}
export const Profile = z.object({
  id: z.string(),
  name: z.string(),
  kind: ProfileKind,
  /** Shown for remote profiles; never for the environment profile. */
  baseUrl: z.string().nullable(),
  keyHeader: KeyHeader,
});
export type Profile = z.infer<typeof Profile>;
export interface ProfilesState {
  profiles: Profile[];
  activeId: string;
}

export type KeyStorage = 'keychain' | 'safe-storage' | 'memory' | 'environment' | 'none';
export interface KeyStatus {
  profileId: string;
  set: boolean;
  storage: KeyStorage;
  /** Shown to the user, e.g. when the key only lives in memory for this session. */
  warning: string | null;
}

export interface ConnectionTest {
  ok: boolean;
  version: string | null;
  capabilities: Capabilities;
  error: BridgeError | null;
}

export interface Catalogs {
  templates: Template[];
  voices: Voice[];
  /** The API's presenters (extension `presenters`; none without it: each template's speaks). */
  presenters: Presenter[];
  /** True when the render API was unreachable and these come from the last cache. */
  fromCache: boolean;
}

/** A draft's id: also its file name in the drafts folder, so nothing that could leave it. */
export const DraftId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a draft id (1–64 letters, digits, _ or -)');

/** What the editor saves: the video document, with the draft's id once it has one. */
export const DraftInput = VideoDocument.extend({ id: DraftId.optional() });
export type DraftInput = z.infer<typeof DraftInput>;
/** A saved draft: the video document plus its id and dates. */
export const Draft = VideoDocument.extend({ id: DraftId, createdAt: z.string(), updatedAt: z.string() });
export type Draft = z.infer<typeof Draft>;
/** A draft file of any version, read into the current shape. */
export const DraftFile = z.preprocess(upgradeDocument, Draft);
export interface DraftSummary {
  id: string;
  name: string;
  excerpt: string;
  updatedAt: string;
}

/**
 * Outbox failures worth sending again by themselves: not reachable, busy (429), or failing on
 * the API's side. Any other answer is a refusal that waits for "Send again" or new settings.
 */
export const RETRYABLE_OUTBOX_ERRORS: readonly string[] = ['offline', 'rate_limited', 'quota_exceeded', 'internal_error', 'unavailable'];
export const isRetryable = (code: string): boolean => RETRYABLE_OUTBOX_ERRORS.includes(code);

/** The version of outbox files; version 1 (no `version` field) is read as this one. */
export const OUTBOX_VERSION = 2;

export const OutboxItem = z.object({
  version: z.literal(OUTBOX_VERSION),
  /** Also the Idempotency-Key sent with the request, so a resend never makes a second job. */
  id: z.string().min(1),
  profileId: z.string(),
  /** A scene job's assets are uploaded before it is queued: the request names them by id. */
  request: RenderRequest,
  createdAt: z.string(),
  attempts: z.number().int().min(0),
  lastError: BridgeError.nullable(),
});
export type OutboxItem = z.infer<typeof OutboxItem>;
/** An outbox file of any version: version 1 held the same request without a version field. */
export const OutboxFile = z.preprocess(
  (raw) => (raw && typeof raw === 'object' && !Array.isArray(raw) && !('version' in raw) ? { ...raw, version: OUTBOX_VERSION } : raw),
  OutboxItem,
);

export interface SubmitResult {
  job: Job | null;
  /** Set when the render API was unreachable: the request waits in the outbox. */
  queued: OutboxItem | null;
}

export interface JobListResult extends JobList {
  fromCache: boolean;
}

/** A job's file: `srt` is its captions in SRT (extension `sound`). */
export type MediaKind = 'video' | 'captions' | 'srt' | 'thumbnail';

export type StudioState = 'disabled' | 'starting' | 'running' | 'restarting' | 'stopped' | 'failed';
export interface StudioStatus {
  state: StudioState;
  baseUrl: string | null;
  restarts: number;
  error: string | null;
}

export interface DownloadResult {
  downloadId: string | null;
  /** Where the file is being written (desktop); null in the browser or when the user canceled. */
  path: string | null;
  canceled: boolean;
  /** The file's name: the job's title (or first words) and date, safe on every OS. */
  fileName: string;
}

export interface AppInfo {
  version: string;
  shell: 'electron' | 'web';
  platform: string;
}

export interface CsvRowReport {
  row: number;
  ok: boolean;
  draftId: string | null;
  jobId: string | null;
  errors: { path: string; message: string }[];
}

/** One file on its way into the media library (progress arrives as `upload` events). */
export interface UploadStatus {
  uploadId: string;
  name: string;
  sizeBytes: number | null;
  sentBytes: number;
  state: 'uploading' | 'converting' | 'done' | 'failed' | 'canceled';
  /** The stored asset once `done`. */
  asset: Asset | null;
  /** Why it was refused (the API's message, e.g. "this .png is really a text file"). */
  error: BridgeError | null;
}

export type StudioEvent =
  | { type: 'upload'; profileId: string; upload: UploadStatus }
  | { type: 'job'; profileId: string; job: Job }
  | { type: 'job-removed'; profileId: string; jobId: string }
  | { type: 'jobs-stale'; profileId: string }
  | { type: 'outbox'; items: OutboxItem[] }
  | { type: 'studio'; status: StudioStatus }
  /** `problem`: why the API is not usable (offline, key refused, not authorised, server error); null when online. */
  | { type: 'connection'; profileId: string; online: boolean; problem?: BridgeError | null }
  | { type: 'download'; downloadId: string; receivedBytes: number; totalBytes: number | null; done: boolean; error: BridgeError | null };

/** The API's list query (JobListQuery) as typed values instead of URL strings. */
export const JobsListInput = z.strictObject({
  ...JobListQuery.shape,
  status: z.array(JobStatus).optional(),
  limit: z.number().int().min(1).max(LIMITS.listMaxLimit).optional(),
});
export type JobsListInput = z.infer<typeof JobsListInput>;

export { AspectRatio, JobList };

/** The app's own settings (not a profile's): every field has a default. */
export interface AppSettings {
  /** The pronunciation dictionary, sent with every job as its `lexicon` to an API with the `sound` extension. */
  pronunciation: LexiconEntry[];
}
