// Files the packaged app stores brotli-compressed (`<name>.br`, written by
// electron/build/after-pack.mjs, PACKED_FILES) and reads back whole into memory; a checkout has
// the plain file. Plain JavaScript: worker threads (flite-worker.mjs, pico-worker.mjs) load it as it is.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, brotliDecompress, brotliDecompressSync, constants } from 'node:zlib';
import { promisify } from 'node:util';

export const PACKED_SUFFIX = '.br';

/** The bytes of `path`, or of its packed form when only that exists. */
export async function readPackedFile(path) {
  try {
    return await readFile(path);
  } catch (err) {
    // The plain file is absent in a packaged app: read its compressed form instead.
    if (err?.code !== 'ENOENT') throw err;
  }
  return promisify(brotliDecompress)(await readFile(path + PACKED_SUFFIX));
}

/** readPackedFile for code that cannot wait (Skia's font registration, a worker's setup). */
export function readPackedFileSync(path) {
  try {
    return readFileSync(path);
  } catch (err) {
    // The plain file is absent in a packaged app: read its compressed form instead.
    if (err?.code !== 'ENOENT') throw err;
  }
  return brotliDecompressSync(readFileSync(path + PACKED_SUFFIX));
}

/** What the build stores for `bytes` (quality 9: near the best size at a fraction of 11's time). */
export function packBytes(bytes) {
  return brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
}
