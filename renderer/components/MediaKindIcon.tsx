// A glyph per kind of file, where a thumbnail is missing (audio) or still loading.
import type { AssetKind } from '../../shared/contract/index.js';

const PATHS: Record<AssetKind | 'upload', string> = {
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9.5a1 1 0 1 0 0-.01',
  video: 'M4 6h11v12H4zM15 10l5-3v10l-5-3',
  audio: 'M9 18V6l10-2v12M9 18a3 3 0 1 1-3-3 3 3 0 0 1 3 3zM19 16a3 3 0 1 1-3-3 3 3 0 0 1 3 3',
  document: 'M6 3h8l4 4v14H6zM14 3v4h4M9 12h6M9 16h6',
  font: 'M5 20L11 4h2l6 16M8 13h8',
  upload: 'M12 16V4m0 0L7 9m5-5l5 5M5 20h14',
};

export function MediaKindIcon({ kind, size = 22 }: { kind: AssetKind | 'upload'; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="icon">
      <path d={PATHS[kind]} fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
