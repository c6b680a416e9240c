// What a creator's file is, by its name: the media type declared to the render API (which sniffs
// the bytes and refuses a file that lies), and the files a slide deck must be converted from.
// One table for the desktop (paths, the file dialog's filters) and the web shell (uploaded names).
import { extname } from 'node:path';
import { ASSET_KINDS, assetKindOf, type AssetKind, type AssetMediaType } from '../../shared/contract/index.js';

const BY_EXTENSION: Record<string, AssetMediaType> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp',
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.m4a': 'audio/mp4', '.ogg': 'audio/ogg', '.oga': 'audio/ogg', '.opus': 'audio/ogg',
  '.pdf': 'application/pdf',
  '.ttf': 'font/ttf', '.otf': 'font/otf', '.woff2': 'font/woff2',
};
/** Slide decks the app turns into a PDF (LibreOffice) before they are uploaded. */
export const SLIDE_DECK_EXTENSIONS: readonly string[] = ['.pptx', '.ppt', '.odp'];

export type FileType = { mediaType: AssetMediaType; kind: AssetKind; convert: false } | { mediaType: 'application/pdf'; kind: 'document'; convert: true };

/** The file's type by its extension, or null for one the media library does not take. */
export function fileTypeOf(name: string): FileType | null {
  const ext = extname(name).toLowerCase();
  if (SLIDE_DECK_EXTENSIONS.includes(ext)) return { mediaType: 'application/pdf', kind: 'document', convert: true };
  const mediaType = BY_EXTENSION[ext];
  return mediaType ? { mediaType, kind: assetKindOf(mediaType)!, convert: false } : null;
}

export const UNSUPPORTED_FILE_MESSAGE =
  'the media library takes pictures (PNG, JPEG, WebP), clips (MP4, WebM, MOV), audio (MP3, WAV, M4A, OGG), PDF documents, slide decks (PPTX) and fonts (TTF, OTF, WOFF2)';

const KIND_NAMES: Record<AssetKind, string> = { image: 'Pictures', video: 'Clips', audio: 'Audio', document: 'Documents and slide decks', font: 'Fonts' };

/** The OS file dialog's filters for these kinds (all of them when none are given). */
export function dialogFilters(kinds: readonly AssetKind[] = ASSET_KINDS): { name: string; extensions: string[] }[] {
  const of = (k: AssetKind) => [
    ...Object.entries(BY_EXTENSION).filter(([, t]) => assetKindOf(t) === k).map(([e]) => e.slice(1)),
    ...(k === 'document' ? SLIDE_DECK_EXTENSIONS.map((e) => e.slice(1)) : []),
  ];
  const each = kinds.map((k) => ({ name: KIND_NAMES[k], extensions: of(k) }));
  return kinds.length > 1 ? [{ name: 'All media', extensions: each.flatMap((f) => f.extensions) }, ...each] : each;
}
