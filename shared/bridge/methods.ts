// The StudioApi contract: one table of method name → input schema. Both transports (Electron
// IPC and the web shell's HTTP) are generated from this table, and the privileged side
// validates every input with it before a handler runs: no per-method glue, no generic invoke.
import { z } from 'zod';
import { AssetKind, Job, Lexicon, PresenterCreate, RenderRequest, SOUND_LIMITS, SoundPreviewRequest, ThumbnailAt, type Asset, type AssetList, type MusicTrack, type Presenter, type VoicePackStatus } from '../contract/index.js';
import type {
  AppInfo,
  AppSettings,
  Catalogs,
  ConnectionTest,
  CsvRowReport,
  Draft,
  DraftSummary,
  DownloadResult,
  JobListResult,
  KeyStatus,
  OutboxItem,
  Profile,
  ProfilesState,
  StudioEvent,
  StudioStatus,
  SubmitResult,
  UploadStatus,
} from './types.js';
import { DraftId, DraftInput, JobsListInput, KeyHeader } from './types.js';
import { BrandKitId, BrandKitInput, type BrandKit, type BrandKitImport } from './brand-kits.js';

const id = z.string().min(1).max(128);
const none = z.strictObject({}).optional();
/** A cut-out mask is a flat PNG (white, its alpha the person): far under this even for large photos; within the web shell's body limit. */
const MASK_PNG_MAX_CHARS = 5_000_000;

export const bridgeInputs = {
  'app.info': none,
  'profiles.list': none,
  'profiles.save': z.strictObject({
    id: id.optional(),
    name: z.string().trim().min(1, 'must not be empty').max(100),
    baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
    keyHeader: KeyHeader,
    /** Optional new key; stored in the keychain, never returned. */
    key: z.string().min(1).max(4096).optional(),
  }),
  'profiles.remove': z.strictObject({ id }),
  'profiles.select': z.strictObject({ id }),
  'profiles.test': z.strictObject({ id }),
  'key.status': z.strictObject({ profileId: id }),
  'key.set': z.strictObject({ profileId: id, key: z.string().trim().min(1, 'must not be empty').max(4096) }),
  'key.clear': z.strictObject({ profileId: id }),
  'catalogs.get': none,
  'drafts.list': z.strictObject({ q: z.string().max(200).optional() }).optional(),
  'drafts.get': z.strictObject({ id: DraftId }),
  'drafts.save': DraftInput,
  'drafts.remove': z.strictObject({ id: DraftId }),
  'jobs.submit': z.strictObject({ request: RenderRequest }),
  'jobs.list': JobsListInput.optional(),
  'jobs.get': z.strictObject({ id }),
  'jobs.cancel': z.strictObject({ id }),
  /** Extension `output`: the finished job's thumbnail made again from its frame at `at` seconds. */
  'jobs.thumbnail': z.strictObject({ id, at: ThumbnailAt }),
  'jobs.delete': z.strictObject({ id }),
  'jobs.retry': z.strictObject({ id }),
  'jobs.duplicate': z.strictObject({ id }),
  'jobs.importCsv': z.strictObject({ csv: z.string().max(5_000_000), mode: z.enum(['drafts', 'jobs']) }),
  'outbox.list': none,
  'outbox.remove': z.strictObject({ id }),
  /** Sends a refused item again (after its cause was fixed). */
  'outbox.resend': z.strictObject({ id }),
  'media.url': z.strictObject({ jobId: id, kind: z.enum(['video', 'captions', 'srt', 'thumbnail']) }),
  'voices.sampleUrl': z.strictObject({ voiceId: id }),
  /** A neural voice's pack state; `install: true` starts its download in the studio. */
  'voices.pack': z.strictObject({ voiceId: id, install: z.boolean().optional() }),
  'download.start': z.strictObject({ jobId: id, kind: z.enum(['video', 'captions', 'srt', 'thumbnail']) }),
  'download.cancel': z.strictObject({ downloadId: id }),
  'studio.status': none,
  /** The media library (extension `assets`). */
  'assets.list': z.strictObject({ kind: AssetKind.optional(), q: z.string().max(500).optional(), limit: z.number().int().min(1).max(100).optional(), cursor: z.string().max(200).optional() }).optional(),
  'assets.get': z.strictObject({ id }),
  'assets.delete': z.strictObject({ id }),
  /** Desktop: the OS file dialog, then each chosen file is uploaded (progress as `upload` events). */
  'assets.pick': z.strictObject({ kinds: z.array(AssetKind).optional() }).optional(),
  /** Desktop: a file dropped on the window (its path from the preload's webUtils). */
  'assets.uploadPath': z.strictObject({ path: z.string().min(1).max(4096) }),
  'assets.cancelUpload': z.strictObject({ uploadId: id }),
  'assets.uploads': none,
  /** A URL the renderer may load for an asset's bytes or thumbnail (through the privileged side). */
  'media.assetUrl': z.strictObject({ assetId: id, kind: z.enum(['content', 'thumbnail']) }),
  /** The app's own settings (the pronunciation dictionary). */
  'settings.get': none,
  'settings.save': z.strictObject({ pronunciation: Lexicon.optional() }),
  /** Words as a voice says them (a dictionary entry heard before it is used): WAV bytes, base64. */
  'voices.say': z.strictObject({ voiceId: id, text: z.string().trim().min(1, 'must not be empty').max(SOUND_LIMITS.lexiconSayMaxChars) }),
  /** Brand kits (kept by the app; extension `brand` renders them). */
  'brandKits.list': none,
  'brandKits.save': BrandKitInput,
  'brandKits.remove': z.strictObject({ id: BrandKitId }),
  /** The kit as one file to share: its name and JSON text. */
  'brandKits.export': z.strictObject({ id: BrandKitId }),
  /** A shared kit file's text: saved as a new kit, its logo and font re-linked in this media library. */
  'brandKits.import': z.strictObject({ text: z.string().max(1_000_000) }),
  /** The music tracks the app ships (extension `sound`). */
  'music.tracks': none,
  /** A built-in track as an audio asset of the media library (imported on first use). */
  'music.importTrack': z.strictObject({ trackId: id }),
  /** A scene's narration with the video's music under it, mixed as the video will have it. */
  'music.preview': SoundPreviewRequest,
  /**
   * A photo presenter from a portrait in the media library and its Face Mesh points (extension
   * `presenters`). `maskPng`: the cut-out look's mask the page made (base64 PNG), uploaded by the
   * privileged side as an asset and sent as `maskAssetId` (the desktop's upload takes only files
   * of the computer, and the mask is made in the page).
   */
  'presenters.create': PresenterCreate.extend({ maskPng: z.base64().max(MASK_PNG_MAX_CHARS, 'the cut-out mask is too large').optional() }),
} as const;

export type BridgeMethod = keyof typeof bridgeInputs;
export const BRIDGE_METHODS = Object.keys(bridgeInputs) as BridgeMethod[];

export interface BridgeOutputs {
  'app.info': AppInfo;
  'profiles.list': ProfilesState;
  'profiles.save': Profile;
  'profiles.remove': ProfilesState;
  'profiles.select': ProfilesState;
  'profiles.test': ConnectionTest;
  'key.status': KeyStatus;
  'key.set': KeyStatus;
  'key.clear': KeyStatus;
  'catalogs.get': Catalogs;
  'drafts.list': DraftSummary[];
  'drafts.get': Draft;
  'drafts.save': Draft;
  'drafts.remove': { ok: true };
  'jobs.submit': SubmitResult;
  'jobs.list': JobListResult;
  'jobs.get': Job;
  'jobs.cancel': Job;
  'jobs.thumbnail': Job;
  'jobs.delete': { ok: true };
  'jobs.retry': SubmitResult;
  'jobs.duplicate': Draft;
  'jobs.importCsv': { rows: CsvRowReport[] };
  'outbox.list': OutboxItem[];
  'outbox.remove': { ok: true };
  'outbox.resend': { ok: true };
  'media.url': { url: string };
  'voices.sampleUrl': { url: string };
  'voices.pack': VoicePackStatus;
  'download.start': DownloadResult;
  'download.cancel': { ok: true };
  'studio.status': StudioStatus;
  'assets.list': AssetList;
  'assets.get': Asset;
  'assets.delete': { ok: true };
  'assets.pick': { uploads: UploadStatus[] };
  'assets.uploadPath': UploadStatus;
  'assets.cancelUpload': { ok: true };
  'assets.uploads': UploadStatus[];
  'media.assetUrl': { url: string };
  'settings.get': AppSettings;
  'settings.save': AppSettings;
  'voices.say': { wavBase64: string };
  'brandKits.list': BrandKit[];
  'brandKits.save': BrandKit;
  'brandKits.remove': { ok: true };
  'brandKits.export': { fileName: string; text: string };
  'brandKits.import': BrandKitImport;
  'music.tracks': { tracks: MusicTrack[] };
  'music.importTrack': Asset;
  /** MP3 bytes, base64. */
  'music.preview': { mediaType: 'audio/mpeg'; audio: string };
  'presenters.create': Presenter;
}

export type BridgeInput<M extends BridgeMethod> = z.input<(typeof bridgeInputs)[M]>;
export type BridgeParsedInput<M extends BridgeMethod> = z.output<(typeof bridgeInputs)[M]>;

/** What the renderer sees as `window.studio`. */
export type StudioApi = {
  call<M extends BridgeMethod>(method: M, input: BridgeInput<M>): Promise<BridgeOutputs[M]>;
  /** Live events (job changes, outbox, studio status, downloads). Returns an unsubscribe. */
  subscribe(listener: (event: StudioEvent) => void): () => void;
  /**
   * Uploads a file the user dropped or chose in an <input type=file> into the media library
   * (desktop: by its path; web shell: streamed over HTTP). Answers once it started; progress and
   * the result arrive as `upload` events.
   */
  upload(file: File): Promise<UploadStatus>;
};

/** The privileged side implements one handler per method; transports call it after validation. */
export type StudioHandlers = {
  [M in BridgeMethod]: (input: BridgeParsedInput<M>) => Promise<BridgeOutputs[M]>;
};

/** Transport framing: a result or a `{ code, message }` error, never a thrown object. */
export type BridgeResponse<T> = { ok: true; value: T } | { ok: false; error: import('./types.js').BridgeError };

export const IPC_CHANNEL_PREFIX = 'studio:';
export const IPC_EVENT_CHANNEL = 'studio:event';
