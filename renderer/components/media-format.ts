// How the media library writes a file's facts: kind, size, and length, pages or dimensions.
import type { Asset, AssetKind } from '../../shared/contract/index.js';

export const KIND_LABELS: Record<AssetKind, { one: string; many: string }> = {
  image: { one: 'Picture', many: 'Pictures' },
  video: { one: 'Clip', many: 'Clips' },
  audio: { one: 'Audio', many: 'Audio' },
  document: { one: 'Document', many: 'Documents' },
  font: { one: 'Font', many: 'Fonts' },
};

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (x: number) => String(x).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** Length for clips and audio, pages for documents, dimensions for pictures. */
export function assetExtent(a: Pick<Asset, 'kind' | 'width' | 'height' | 'durationSeconds' | 'pages'>): string | null {
  if ((a.kind === 'video' || a.kind === 'audio') && a.durationSeconds !== null) return formatDuration(a.durationSeconds);
  if (a.kind === 'document' && a.pages !== null) return `${a.pages} ${a.pages === 1 ? 'page' : 'pages'}`;
  if (a.width !== null && a.height !== null) return `${a.width}×${a.height}`;
  return null;
}

/** "Picture · 1.2 MB · 1920×1080": the card's second line and its accessible description. */
export function assetFacts(a: Asset): string {
  return [KIND_LABELS[a.kind].one, formatBytes(a.sizeBytes), assetExtent(a)].filter(Boolean).join(' · ');
}
