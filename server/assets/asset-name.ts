// An asset's name as the creator sees it (the file's name): kept, but cleaned. It is only ever
// shown, never used as a path.
import { ASSET_LIMITS } from '../../shared/contract/index.js';

/**
 * Drops `/`, `\`, NUL and every other control character (C0, DEL, C1), trims, and cuts to at
 * most 255 UTF-8 bytes without splitting a character. Null when nothing is left.
 */
export function cleanAssetName(raw: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  let name = raw.replace(/[/\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').trim();
  if (!name) return null;
  while (Buffer.byteLength(name, 'utf8') > ASSET_LIMITS.nameMaxBytes) name = [...name].slice(0, -1).join('');
  name = name.trim();
  return name || null;
}

/** The extension of a name, lower case with its dot (".png"), or "" when it has none. */
export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return m ? `.${m[1]!.toLowerCase()}` : '';
}
