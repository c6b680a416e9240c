// Worker thread: kuromoji (its IPADIC dictionary loaded once, ~1 s and ~90 MB: off the server's
// event loop, and freed when the worker is retired) reading Japanese runs with kanji.
// Plain JavaScript so it starts the same under tsx, vitest and a bundled app.
// Request: { id, runs: string[] }   Reply: { id, readings: string[] } | { id, error }
import { parentPort } from 'node:worker_threads';
import { loadTokenizer } from './japanese-dictionary.mjs';

const tokenizerPromise = loadTokenizer();

/** Katakana to hiragana (the long-vowel mark and other signs stay). */
const hiragana = (s) => s.replace(/[\u30A1-\u30F6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));

/** A run's words as said, in hiragana; a word the dictionary does not know stays as written. */
function reading(tokenizer, run) {
  return tokenizer
    .tokenize(run)
    .map((t) => (t.pronunciation && t.pronunciation !== '*' ? hiragana(t.pronunciation) : t.surface_form))
    .join('');
}

parentPort.on('message', async (req) => {
  try {
    const tokenizer = await tokenizerPromise;
    parentPort.postMessage({ id: req.id, readings: req.runs.map((run) => reading(tokenizer, run)) });
  } catch (err) {
    parentPort.postMessage({ id: req.id, error: `the Japanese dictionary (kuromoji) failed: ${String(err && err.message ? err.message : err)}` });
  }
});
