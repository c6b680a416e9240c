// The media library: the creator's files (one page of the API's list at a time, filtered by
// kind and a search), the uploads on their way in, and what a file becomes in the video (a
// scene's background, or a scene per page of a slide deck). A slice of the app's one store, under
// its own key (`createMediaSlice` takes that key's set/get, as every slice there does).
import type { UploadStatus } from '../../shared/bridge/index.js';
import { ASSET_MEDIA_TYPES, type Asset, type AssetKind, type SceneBackground } from '../../shared/contract/index.js';
import { call, describeError, studio, subscribe, toBridgeError } from '../lib/bridge.js';
import { documentNarrations, pagesToImport, slideScenes } from '../lib/pdf-import.js';
import { useMedia } from './index.js';
import { placeScenes, sceneCount, selectedIsEmpty, updateScene } from './scene-actions.js';

/** What the file input offers: the contract's media types, and slide decks the app converts to PDF. */
export const UPLOAD_ACCEPT = [...Object.keys(ASSET_MEDIA_TYPES), '.pptx', '.ppt', '.odp'].join(',');

/** Kinds a scene can stand on (audio is heard, not seen). */
export const BACKGROUND_KINDS: readonly AssetKind[] = ['image', 'video', 'document'];

export const ASSET_IN_USE_MESSAGE = 'A queued render still uses this file. Delete it once that render has finished.';

/** How an asset fills a scene when chosen as its background: edge to edge; a document from its first page. */
export function backgroundOf(asset: Pick<Asset, 'id' | 'kind'>): SceneBackground {
  return { assetId: asset.id, fit: 'cover', ...(asset.kind === 'document' ? { page: 1 } : {}) };
}

/** An upload as the library shows it; `sceneId`: the scene whose background it becomes once stored. */
export type UploadRow = UploadStatus & { sceneId: string | null };

const FINISHED: readonly UploadStatus['state'][] = ['done', 'failed', 'canceled'];
const PAGE_SIZE = 60;

export interface MediaState {
  assets: Asset[];
  assetsCursor: string | null;
  assetsLoading: boolean;
  assetsError: string | null;
  /** False when the render API lacks the `assets` extension: the library is hidden. null: not known yet. */
  assetsSupported: boolean | null;
  assetQuery: { q: string; kind: AssetKind | null };
  selectedAssetId: string | null;
  uploads: UploadRow[];
  /** The last thing the library has to say (a refused delete, an import's result), with its tone. */
  mediaNotice: { text: string; tone: 'error' | 'info' } | null;
  /** A document being turned into scenes. */
  importingAssetId: string | null;
  /** Which shell the app runs in: the desktop picks files with the OS dialog, a browser with a file input. */
  shell: 'electron' | 'web' | null;

  loadAssets(more?: boolean): Promise<void>;
  setAssetQuery(patch: Partial<MediaState['assetQuery']>): Promise<void>;
  selectAsset(id: string | null): void;
  deleteAsset(id: string): Promise<boolean>;
  uploadFiles(files: readonly File[], sceneId?: string | null): Promise<void>;
  pickFiles(): Promise<void>;
  cancelUpload(uploadId: string): Promise<void>;
  dismissUpload(uploadId: string): void;
  applyUpload(upload: UploadStatus): void;
  applyAsBackground(asset: Asset, sceneId: string): void;
  makeScenesFromPages(asset: Asset): Promise<void>;
  dismissMediaNotice(): void;
}

/** The slice's own part of the store: what a bound store's slice helper hands every slice. */
export interface MediaSliceApi {
  set(patch: Partial<MediaState> | ((s: MediaState) => Partial<MediaState>)): void;
  get(): MediaState;
}

export function createMediaSlice({ set, get }: MediaSliceApi): MediaState {
  // Answers to an older query are dropped: typing a search sends one list call per pause.
  let listSeq = 0;
  // Files stored while a first page was on its way: its answer was read before they existed.
  let storedDuringList: Asset[] = [];

  const finished = (row: UploadRow) => {
    if (row.state === 'done' && row.asset) {
      const asset = row.asset;
      const { kind, q } = get().assetQuery;
      const shown = (!kind || asset.kind === kind) && (!q || asset.name.toLowerCase().includes(q.toLowerCase()));
      if (shown) storedDuringList.push(asset);
      set((s) => ({
        assets: shown ? [asset, ...s.assets.filter((a) => a.id !== asset.id)] : s.assets,
        uploads: s.uploads.filter((u) => u.uploadId !== row.uploadId),
        selectedAssetId: asset.id,
      }));
      if (row.sceneId && BACKGROUND_KINDS.includes(asset.kind)) updateScene(row.sceneId, { background: backgroundOf(asset) });
    } else if (row.state === 'canceled') {
      set((s) => ({ uploads: s.uploads.filter((u) => u.uploadId !== row.uploadId) }));
    }
  };

  /** Adds or updates a row; a late answer never takes a row back from a later state. */
  const upsert = (status: UploadStatus, sceneId: string | null) => {
    const rows = get().uploads;
    const known = rows.find((u) => u.uploadId === status.uploadId);
    if (known && FINISHED.includes(known.state) && !FINISHED.includes(status.state)) return;
    const row: UploadRow = { ...status, sceneId: sceneId ?? known?.sceneId ?? null };
    set({ uploads: known ? rows.map((u) => (u.uploadId === row.uploadId ? row : u)) : [...rows, row] });
    if (FINISHED.includes(row.state)) finished(row);
  };

  return {
    assets: [],
    assetsCursor: null,
    assetsLoading: false,
    assetsError: null,
    assetsSupported: null,
    assetQuery: { q: '', kind: null },
    selectedAssetId: null,
    uploads: [],
    mediaNotice: null,
    importingAssetId: null,
    shell: null,

    async loadAssets(more = false) {
      const seq = ++listSeq;
      const { q, kind } = get().assetQuery;
      const cursor = more ? get().assetsCursor : null;
      if (!more) storedDuringList = [];
      set({ assetsLoading: true, assetsError: null });
      try {
        const page = await call('assets.list', {
          limit: PAGE_SIZE,
          ...(q.trim() ? { q: q.trim() } : {}),
          ...(kind ? { kind } : {}),
          ...(cursor ? { cursor } : {}),
        });
        if (seq !== listSeq) return;
        const listed = new Set(page.assets.map((a) => a.id));
        const missed = more ? [] : storedDuringList.filter((a) => !listed.has(a.id)).reverse();
        set((s) => ({ assets: more ? [...s.assets, ...page.assets] : [...missed, ...page.assets], assetsCursor: page.nextCursor, assetsSupported: true, assetsLoading: false }));
      } catch (e) {
        if (seq !== listSeq) return;
        const err = toBridgeError(e);
        // 'unsupported': the render API has no media library; the panel hides itself.
        if (err.code === 'unsupported') set({ assetsSupported: false, assetsLoading: false });
        else set({ assetsError: describeError(err), assetsLoading: false });
      }
    },

    async setAssetQuery(patch) {
      set((s) => ({ assetQuery: { ...s.assetQuery, ...patch } }));
      await get().loadAssets();
    },

    selectAsset: (id) => set({ selectedAssetId: id }),

    async deleteAsset(id) {
      try {
        await call('assets.delete', { id });
        set((s) => ({ assets: s.assets.filter((a) => a.id !== id), selectedAssetId: s.selectedAssetId === id ? null : s.selectedAssetId, mediaNotice: null }));
        return true;
      } catch (e) {
        const err = toBridgeError(e);
        set({ mediaNotice: { text: err.code === 'asset_in_use' ? ASSET_IN_USE_MESSAGE : describeError(err), tone: 'error' } });
        return false;
      }
    },

    async uploadFiles(files, sceneId = null) {
      await Promise.all(
        files.map(async (file) => {
          try {
            upsert(await studio().upload(file), sceneId);
          } catch (e) {
            // Refused before it started (too big, a type the shell will not send): a row that says why.
            const error = toBridgeError(e);
            upsert({ uploadId: `local-${crypto.randomUUID()}`, name: file.name, sizeBytes: file.size, sentBytes: 0, state: 'failed', asset: null, error: { code: error.code, message: error.message } }, null);
          }
        }),
      );
    },

    async pickFiles() {
      try {
        const { uploads } = await call('assets.pick', undefined);
        for (const u of uploads) upsert(u, null);
      } catch (e) {
        set({ mediaNotice: { text: describeError(e), tone: 'error' } });
      }
    },

    async cancelUpload(uploadId) {
      try {
        await call('assets.cancelUpload', { uploadId });
        const row = get().uploads.find((u) => u.uploadId === uploadId);
        if (row && !FINISHED.includes(row.state)) upsert({ ...row, state: 'canceled' }, null);
      } catch (e) {
        set({ mediaNotice: { text: describeError(e), tone: 'error' } });
      }
    },

    dismissUpload: (uploadId) => set((s) => ({ uploads: s.uploads.filter((u) => u.uploadId !== uploadId) })),

    applyUpload: (upload) => upsert(upload, null),

    applyAsBackground(asset, sceneId) {
      if (BACKGROUND_KINDS.includes(asset.kind)) updateScene(sceneId, { background: backgroundOf(asset) });
    },

    async makeScenesFromPages(asset) {
      if (asset.kind !== 'document' || get().importingAssetId) return;
      set({ importingAssetId: asset.id, mediaNotice: null });
      try {
        const { url } = await call('media.assetUrl', { assetId: asset.id, kind: 'content' });
        const max = pagesToImport(asset, sceneCount(), selectedIsEmpty());
        if (max === 0) throw new Error('The video already has as many scenes as it can hold.');
        const { narrations, pages } = await documentNarrations(url, max);
        placeScenes(slideScenes(asset.id, narrations));
        const left = pages - narrations.length;
        set({
          mediaNotice: {
            text: `${narrations.length} ${narrations.length === 1 ? 'scene' : 'scenes'} made from “${asset.name}”${left > 0 ? `; ${left} more ${left === 1 ? 'page does' : 'pages do'} not fit in one video` : ''}.`,
            tone: left > 0 ? 'error' : 'info',
          },
        });
      } catch (e) {
        set({ mediaNotice: { text: `“${asset.name}” could not be read as slides: ${describeError(e)}`, tone: 'error' } });
      } finally {
        set({ importingAssetId: null });
      }
    },

    dismissMediaNotice: () => set({ mediaNotice: null }),
  };
}

export { useMedia };

/** Files dropped on a scene card: uploaded, then each becomes that scene's background. */
export const dropOnScene = (sceneId: string, files: readonly File[]): Promise<void> => useMedia.getState().uploadFiles(files, sceneId);

/** Upload progress from the bridge, and the uploads already running when the app opens. */
export function connectMedia(): () => void {
  const off = subscribe((e) => {
    if (e.type === 'upload') useMedia.getState().applyUpload(e.upload);
    // Back online or another profile: the library may have changed, or may exist only now.
    if (e.type === 'connection' && e.online) void useMedia.getState().loadAssets();
  });
  call('app.info', undefined).then(
    (info) => useMedia.setState({ shell: info.shell }),
    () => undefined, // unknown: the file input works in both shells
  );
  call('assets.uploads', undefined).then(
    (rows) => rows.forEach((u) => useMedia.getState().applyUpload(u)),
    () => undefined, // an API without the library has no uploads either
  );
  return off;
}
