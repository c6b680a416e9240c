// Downloads started from the job list, with progress from bridge events.
import type { BridgeError, MediaKind, StudioEvent } from '../../shared/bridge/index.js';
import type { SliceApi } from './slice.js';

export interface DownloadItem {
  id: string;
  label: string;
  kind: MediaKind;
  path: string | null;
  receivedBytes: number;
  totalBytes: number | null;
  done: boolean;
  error: BridgeError | null;
}

export interface DownloadsState {
  items: DownloadItem[];
  add(d: Pick<DownloadItem, 'id' | 'label' | 'kind' | 'path'>): void;
  progress(e: Extract<StudioEvent, { type: 'download' }>): void;
  remove(id: string): void;
  /** A failure the download's own events did not report (e.g. its cancel was refused). */
  fail(id: string, error: BridgeError): void;
}

export const createDownloadsSlice = ({ set, get }: SliceApi<DownloadsState>): DownloadsState => ({
  items: [],
  add(d) {
    if (get().items.some((i) => i.id === d.id)) return;
    set({ items: [...get().items, { ...d, receivedBytes: 0, totalBytes: null, done: false, error: null }] });
  },
  progress(e) {
    const known = get().items.some((i) => i.id === e.downloadId);
    const base: DownloadItem = known
      ? get().items.find((i) => i.id === e.downloadId)!
      : { id: e.downloadId, label: 'Download', kind: 'video', path: null, receivedBytes: 0, totalBytes: null, done: false, error: null };
    const next = { ...base, receivedBytes: e.receivedBytes, totalBytes: e.totalBytes, done: e.done, error: e.error };
    set({ items: known ? get().items.map((i) => (i.id === e.downloadId ? next : i)) : [...get().items, next] });
  },
  remove(id) {
    set({ items: get().items.filter((i) => i.id !== id) });
  },
  fail(id, error) {
    set({ items: get().items.map((i) => (i.id === id ? { ...i, error } : i)) });
  },
});
