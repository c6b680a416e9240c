// Names for downloaded files: the job's title (or its script's first words) and its date, made
// safe on every OS, e.g. "Quarterly update – 2026-11-23.mp4".
import { excerptOf, type Job } from '../../shared/contract/index.js';
import type { MediaKind } from '../../shared/bridge/index.js';

export const MEDIA_EXT: Record<MediaKind, string> = { video: 'mp4', captions: 'vtt', srt: 'srt', thumbnail: 'jpg' };
const MAX_BASE_CHARS = 100;
// Reserved device names on Windows, whatever the extension.
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** A file name part without path separators, control or reserved characters, trailing dots or spaces. */
export function safeFilePart(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/[\\/:*?"<>|\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const short = excerptOf(cleaned, MAX_BASE_CHARS, '').replace(/^[.\s]+|[.\s]+$/g, '');
  return RESERVED.test(short) ? `${short} video` : short;
}

export function downloadFileName(job: Pick<Job, 'id' | 'title' | 'text' | 'createdAt'>, kind: MediaKind): string {
  const base = safeFilePart(job.title ?? '') || safeFilePart(excerptOf(job.text, 40, '')) || job.id;
  const date = /^\d{4}-\d{2}-\d{2}/.exec(job.createdAt)?.[0];
  return `${base}${date ? ` – ${date}` : ''}.${MEDIA_EXT[kind]}`;
}
