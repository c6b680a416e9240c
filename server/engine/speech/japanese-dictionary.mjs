// kuromoji's IPADIC dictionary (node_modules/kuromoji/dict) made into a tokenizer without
// kuromoji's own loader, whose `async` dependency would pull lodash into the app. A checkout
// reads the gzip files kuromoji ships (`<name>.dat.gz`); the packaged app stores each file's
// content brotli-compressed instead (`<name>.dat.br`, written by packDictionary from the build's
// afterPack hook), first rearranged so that brotli finds what repeats: numbers as the difference
// from the one before, the bytes of each number or record grouped by their place in it, and the
// words' features (one text record of ten fields per word) stored field by field.
// Plain JavaScript: the Japanese worker and the build's hook load it as it is.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { brotliDecompress, gunzip, gunzipSync } from 'node:zlib';
import { packBytes, PACKED_SUFFIX } from '../../packed-file.mjs';

const require = createRequire(import.meta.url);

/**
 * Every file of the dictionary and how its packed form is rearranged: `delta`, the size in bytes
 * of the numbers stored as differences; `group`, the size of the numbers or records whose bytes
 * are grouped by place; `fields`, the number of comma-separated fields of its NUL-ended records.
 */
export const DICTIONARY_FILES = {
  base: { delta: 4, group: 4 }, // the trie
  check: { delta: 4 },
  tid: { group: 10 }, // each word: left and right context, cost (16 bits each), features' offset (32)
  tid_pos: { fields: 10 }, // each word's features: surface, part of speech…, base form, reading, pronunciation
  tid_map: { group: 4 },
  cc: { delta: 2, group: 2 }, // the connection costs
  unk: {}, unk_pos: {}, unk_map: {}, unk_char: {}, unk_compat: { group: 4 }, unk_invoke: {},
};

/** Where kuromoji keeps its dictionary, in a checkout and in the packaged app alike. */
export function dictionaryDir() {
  return join(dirname(require.resolve('kuromoji/package.json')), 'dict');
}

/** Little-endian signed numbers of `size` bytes as differences from the one before (`undo`: back). */
function delta(bytes, size, undo) {
  const out = new Uint8Array(bytes);
  const n = Math.floor(out.length / size);
  const a = size === 4 ? new Int32Array(out.buffer, 0, n) : new Int16Array(out.buffer, 0, n);
  if (undo) for (let i = 1; i < n; i++) a[i] += a[i - 1];
  else for (let i = n - 1; i > 0; i--) a[i] -= a[i - 1];
  return out;
}

/** Bytes of `size`-byte items regrouped by place (`undo`: back); a tail shorter than one item stays last. */
function group(bytes, size, undo) {
  const n = Math.floor(bytes.length / size);
  const out = new Uint8Array(bytes.length);
  for (let k = 0; k < size; k++) {
    const at = k * n;
    if (undo) for (let i = 0; i < n; i++) out[i * size + k] = bytes[at + i];
    else for (let i = 0; i < n; i++) out[at + i] = bytes[i * size + k];
  }
  out.set(bytes.subarray(n * size), n * size);
  return out;
}

/** A field equal to another of its record (base form = surface, pronunciation = reading). */
const SAME = 0x01;
const SAME_AS = { 7: 0, 9: 8 };
const NUL = 0x00;
const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * NUL-ended text records of `count` comma-separated fields (then zeros up to the length), as the
 * length, then each field of every record, field by field (`undo`: back; bytes, not strings:
 * hundreds of thousands of records).
 */
function fields(bytes, count, undo) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (!undo) {
    let end = b.length;
    while (end > 0 && b[end - 1] === NUL) end--;
    const records = b.subarray(0, end).toString('utf8').split('\0').map((r) => r.split(','));
    const same = String.fromCharCode(SAME);
    const cols = Array.from({ length: count }, (_, f) => records.map((r) => (f in SAME_AS && r[f] === r[SAME_AS[f]] ? same : r[f])).join('\n'));
    return Buffer.from([String(b.length), ...cols].join('\0'), 'utf8');
  }
  let at = b.indexOf(NUL);
  const out = Buffer.alloc(Number(b.subarray(0, at).toString('latin1')));
  // Where each field's line starts in its column, one past the column's end last.
  const lines = [];
  for (let f = 0; f < count; f++) {
    const end = f === count - 1 ? b.length : b.indexOf(NUL, at + 1);
    const starts = [at + 1];
    for (let i = b.indexOf(NEWLINE, at + 1); i !== -1 && i < end; i = b.indexOf(NEWLINE, i + 1)) starts.push(i + 1);
    starts.push(end + 1);
    lines.push(starts);
    at = end;
  }
  let o = 0;
  for (let r = 0; r < lines[0].length - 1; r++) {
    for (let f = 0; f < count; f++) {
      let from = lines[f][r];
      let to = lines[f][r + 1] - 1;
      if (to - from === 1 && b[from] === SAME) {
        from = lines[SAME_AS[f]][r];
        to = lines[SAME_AS[f]][r + 1] - 1;
      }
      while (from < to) out[o++] = b[from++];
      out[o++] = f === count - 1 ? NUL : COMMA;
    }
  }
  return out;
}

function rearrange(bytes, how) {
  let b = new Uint8Array(bytes);
  if (how.fields) b = fields(b, how.fields, false);
  if (how.delta) b = delta(b, how.delta, false);
  if (how.group) b = group(b, how.group, false);
  return b;
}

function restore(bytes, how) {
  let b = new Uint8Array(bytes);
  if (how.group) b = group(b, how.group, true);
  if (how.delta) b = delta(b, how.delta, true);
  if (how.fields) b = fields(b, how.fields, true);
  return b;
}

/**
 * Replaces each `<name>.dat.gz` of the dictionary in `dir` by its packed `<name>.dat.br`; fails
 * when a file would not read back as it was.
 */
export function packDictionary(dir) {
  for (const [name, how] of Object.entries(DICTIONARY_FILES)) {
    const gz = join(dir, `${name}.dat.gz`);
    const content = gunzipSync(readFileSync(gz));
    const rearranged = rearrange(content, how);
    if (!isDeepStrictEqual(Buffer.from(restore(rearranged, how)), content)) throw new Error(`the Japanese dictionary's ${name}.dat would not read back as it is`);
    writeFileSync(join(dir, `${name}.dat${PACKED_SUFFIX}`), packBytes(Buffer.from(rearranged)));
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
  return restore(packed, DICTIONARY_FILES[name]).buffer;
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
