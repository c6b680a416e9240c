// kuromoji's IPADIC dictionary (node_modules/kuromoji/dict) made into a tokenizer without
// kuromoji's own loader, whose `async` dependency would pull lodash into the app. A checkout
// reads the gzip files kuromoji ships (`<name>.dat.gz`); the packaged app stores each file's
// content brotli-compressed instead (`<name>.dat.br`, written by packDictionary from the build's
// afterPack hook), with the bytes of every number grouped by their place in it (all first bytes,
// then all second bytes…): the trie's and the cost matrix's numbers compress far better that way.
// Plain JavaScript: the Japanese worker and the build's hook load it as it is.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, gunzipSync } from 'node:zlib';
import { packBytes, PACKED_SUFFIX } from '../../packed-file.mjs';

const require = createRequire(import.meta.url);

/** Every file of the dictionary, with the width in bytes of the numbers it holds (1: bytes or text). */
export const DICTIONARY_FILES = {
  base: 4, check: 4, tid: 1, tid_pos: 1, tid_map: 4, cc: 2,
  unk: 1, unk_pos: 1, unk_map: 1, unk_char: 1, unk_compat: 4, unk_invoke: 1,
};

/** Where kuromoji keeps its dictionary, in a checkout and in the packaged app alike. */
export function dictionaryDir() {
  return join(dirname(require.resolve('kuromoji/package.json')), 'dict');
}

/** Bytes of `width`-byte numbers regrouped by place (a tail shorter than one number stays last). */
function group(bytes, width) {
  if (width === 1) return bytes;
  const n = Math.floor(bytes.length / width);
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < n; i++) for (let k = 0; k < width; k++) out[k * n + i] = bytes[i * width + k];
  out.set(bytes.subarray(n * width), n * width);
  return out;
}

/** The inverse of group. */
function ungroup(bytes, width) {
  if (width === 1) return bytes;
  const n = Math.floor(bytes.length / width);
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < n; i++) for (let k = 0; k < width; k++) out[i * width + k] = bytes[k * n + i];
  out.set(bytes.subarray(n * width), n * width);
  return out;
}

/** Replaces each `<name>.dat.gz` of the dictionary in `dir` by its packed `<name>.dat.br`. */
export function packDictionary(dir) {
  for (const [name, width] of Object.entries(DICTIONARY_FILES)) {
    const gz = join(dir, `${name}.dat.gz`);
    writeFileSync(join(dir, `${name}.dat${PACKED_SUFFIX}`), packBytes(Buffer.from(group(gunzipSync(readFileSync(gz)), width))));
    rmSync(gz);
  }
}

/** One dictionary file's content, as an ArrayBuffer of its own (typed arrays view it from offset 0). */
async function readDictionaryFile(dir, name) {
  try {
    return new Uint8Array(await promisify(gunzip)(await readFile(join(dir, `${name}.dat.gz`)))).buffer;
  } catch (err) {
    // The gzip file is absent in a packaged app: read its packed form instead.
    if (err?.code !== 'ENOENT') throw err;
  }
  const packed = await promisify(brotliDecompress)(await readFile(join(dir, `${name}.dat${PACKED_SUFFIX}`)));
  return ungroup(new Uint8Array(packed), DICTIONARY_FILES[name]).buffer;
}

/** kuromoji's tokenizer over the dictionary in `dir` (as kuromoji's loader would build it). */
export async function loadTokenizer(dir = dictionaryDir()) {
  const DynamicDictionaries = require('kuromoji/src/dict/DynamicDictionaries');
  const Tokenizer = require('kuromoji/src/Tokenizer');
  const names = Object.keys(DICTIONARY_FILES);
  const b = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readDictionaryFile(dir, n)])));
  const dic = new DynamicDictionaries();
  dic.loadTrie(new Int32Array(b.base), new Int32Array(b.check));
  dic.loadTokenInfoDictionaries(new Uint8Array(b.tid), new Uint8Array(b.tid_pos), new Uint8Array(b.tid_map));
  dic.loadConnectionCosts(new Int16Array(b.cc));
  dic.loadUnknownDictionaries(new Uint8Array(b.unk), new Uint8Array(b.unk_pos), new Uint8Array(b.unk_map), new Uint8Array(b.unk_char), new Uint32Array(b.unk_compat), new Uint8Array(b.unk_invoke));
  return new Tokenizer(dic);
}
