// What the bytes really are (magic numbers, through `file-type`), checked against the media
// type the upload declared: a file that lies is refused with what it really is.
import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import type { AssetMediaType } from '../../shared/contract/index.js';
import { AssetError } from './asset-error.js';
import { extensionOf } from './asset-name.js';

// Container families: an .mp4 and a .mov are both ISO media files, told apart by a brand that
// tools disagree on; the probe (ffprobe) then checks the streams the kind needs.
const ISO_MEDIA = ['video/mp4', 'video/quicktime', 'audio/mp4', 'audio/x-m4a', 'video/x-m4v', 'audio/aac'];
const ACCEPTS: Record<AssetMediaType, readonly string[]> = {
  'image/png': ['image/png', 'image/apng'],
  'image/jpeg': ['image/jpeg'],
  'image/webp': ['image/webp'],
  'video/mp4': ISO_MEDIA,
  'video/quicktime': ISO_MEDIA,
  'audio/mp4': ISO_MEDIA,
  'video/webm': ['video/webm', 'audio/webm'],
  'audio/mpeg': ['audio/mpeg'],
  'audio/wav': ['audio/wav', 'audio/vnd.wave', 'audio/x-wav', 'audio/wave'],
  'audio/ogg': ['audio/ogg', 'audio/opus', 'video/ogg', 'audio/ogg; codecs=opus'],
  'application/pdf': ['application/pdf'],
  'font/ttf': ['font/ttf'],
  'font/otf': ['font/otf'],
  'font/woff2': ['font/woff2'],
};

/** The usual extension of each declared type, for messages about a file without one. */
const EXTENSION: Record<AssetMediaType, string> = {
  'image/png': '.png', 'image/jpeg': '.jpg', 'image/webp': '.webp', 'video/mp4': '.mp4', 'video/webm': '.webm',
  'video/quicktime': '.mov', 'audio/mpeg': '.mp3', 'audio/wav': '.wav', 'audio/mp4': '.m4a', 'audio/ogg': '.ogg',
  'application/pdf': '.pdf', 'font/ttf': '.ttf', 'font/otf': '.otf', 'font/woff2': '.woff2',
};

/** Whether the first bytes read as text (UTF-8 without NULs): "a text file" in the message. */
async function looksLikeText(path: string): Promise<boolean> {
  const f = await open(path, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await f.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    if (bytesRead === 0 || head.includes(0)) return false;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, bytesRead - 4))); // a cut character at the end is fine
      return true;
    } catch {
      return false;
    }
  } finally {
    await f.close();
  }
}

/** Checks the bytes against the declared type; throws 415 naming what the file really is. */
export async function checkSniffedType(path: string, declared: AssetMediaType, name: string): Promise<void> {
  const found = await fileTypeFromFile(path);
  if (found && ACCEPTS[declared].includes(found.mime)) return;
  const ext = extensionOf(name) || EXTENSION[declared];
  const what = found ? `a ${found.ext.toUpperCase()} file (${found.mime})` : (await looksLikeText(path)) ? 'a text file' : null;
  throw new AssetError(
    'unsupported_media_type',
    what ? `this ${ext} is really ${what}, not ${declared}` : `this ${ext} is not ${declared}: its bytes are of no media type we know`,
  );
}
