// The narration spoken chunk by chunk, so a render starts encoding after the first sentence is
// spoken instead of after the whole script: the script is split at sentence ends, the first
// chunk is asked for alone and the others all at once when it is ready, and the render takes
// them in order as its frames
// reach them. Chunks end at sentence ends, where captions end a page anyway, so the caption
// pages are the same as for the script spoken whole.
import { endsSentence, type SpeechTimeline, type TimedPhoneme, type TimedWord } from '../../shared/scene/index.js';
import type { Speech } from './speech.js';
import type { SpeechEngines } from './speech-engines.js';
import type { EngineVoice, EspeakVoice } from './voices.js';

/** Characters per chunk after the first (a few sentences): fewer joins, still well ahead of the frames. */
const CHUNK_CHARS = 400;
/** At most this much of an over-long first sentence is spoken before the first frame. */
const FIRST_CHUNK_CHARS = 200;

/**
 * Splits a script at sentence ends: the first sentence alone, then chunks of about CHUNK_CHARS.
 * A sentence longer than that (a pasted transcript without full stops) is cut between words,
 * after a comma, semicolon, colon or dash where one comes late enough: spoken whole, a
 * 5,000-character sentence kept a Pico render from its first frame for 21 s and its alignment
 * needed ~600 MB. A piece without letters or digits ("…") stays with the sentence before it, so
 * every chunk is something espeak can say. The chunks joined with single spaces hold every token
 * of the script.
 */
export function scriptChunks(text: string): string[] {
  const sentences: string[] = [];
  let current: string[] = [];
  const close = () => {
    if (current.length) sentences.push(...cutLong(current, sentences.length ? CHUNK_CHARS : FIRST_CHUNK_CHARS));
    current = [];
  };
  for (const token of text.split(/\s+/u).filter(Boolean)) {
    current.push(token);
    if (endsSentence(token)) close();
  }
  close();
  const speakable = (s: string) => /[\p{L}\p{N}]/u.test(s);
  const merged: string[] = [];
  for (const s of sentences) {
    if (merged.length && !speakable(s)) merged[merged.length - 1] += ` ${s}`;
    else merged.push(s);
  }
  if (merged.length > 1 && !speakable(merged[0]!)) merged.splice(0, 2, `${merged[0]} ${merged[1]}`);
  const chunks: string[] = [];
  for (const s of merged) {
    const last = chunks.length - 1;
    // The first sentence stays alone; later ones gather up to CHUNK_CHARS.
    if (last >= 1 && chunks[last]!.length + 1 + s.length <= CHUNK_CHARS) chunks[last] += ` ${s}`;
    else chunks.push(s);
  }
  return chunks.length ? chunks : [text];
}

const endsClause = (token: string) => /[,;:\u2013\u2014\u3001\uFF0C\uFF1B\uFF1A\u060C]["'»)\]」』”’）]*$/u.test(token);

/**
 * A sentence's tokens as pieces of at most `limit` characters (a single longer token stays
 * whole): each cut after the last clause mark in the second half of the piece, else between
 * the last two words that fit. The first piece may be shorter (`first`, for a quick start).
 */
function cutLong(tokens: string[], first: number): string[] {
  const pieces: string[] = [];
  let limit = first;
  let start = 0;
  while (start < tokens.length) {
    let end = start;
    let length = -1;
    while (end < tokens.length && (end === start || length + 1 + tokens[end]!.length <= limit)) length += 1 + tokens[end++]!.length;
    if (end < tokens.length) {
      let size = length;
      for (let k = end - 1; k > start && size > limit / 2; k--) {
        if (endsClause(tokens[k]!)) {
          end = k + 1;
          break;
        }
        size -= 1 + tokens[k]!.length;
      }
    }
    pieces.push(tokens.slice(start, end).join(' '));
    start = end;
    limit = CHUNK_CHARS;
  }
  return pieces;
}

/** The pause espeak leaves between two sentences of one text, beyond what a chunk ends with (kept for every engine). */
function joinPauseSeconds(voice: EspeakVoice): number {
  return (0.25 * 175) / Math.max(80, voice.rate);
}

export interface NarrationChunk {
  /** The chunk's audio, with the pause that follows it when another chunk comes next. */
  samples: Int16Array;
  sampleRate: number;
  /** Its words (indices from `firstWord` in the whole timeline), already at their times in the narration. */
  words: TimedWord[];
  firstWord: number;
}

export class Narration {
  /** Everything spoken so far; grows with every chunk taken. */
  readonly timeline: SpeechTimeline = { durationSeconds: 0, words: [], phonemes: [] };
  private readonly pending: Promise<Speech>[];
  /** Whether each chunk ends a sentence (a long sentence's pieces are joined without the sentence pause). */
  private readonly sentenceEnds: boolean[];
  private taken = 0;

  constructor(speech: Pick<SpeechEngines, 'speak'>, text: string, private readonly voice: EngineVoice, signal: AbortSignal) {
    const chunks = scriptChunks(text);
    this.sentenceEnds = chunks.map((c) => endsSentence(c.slice(c.lastIndexOf(' ') + 1)));
    const [first, ...rest] = chunks;
    const firstSpoken = speech.speak(first!, voice, signal);
    // The rest are asked for once the first is ready: the render's first frame waits for the
    // first sentence (a Pico voice's synthesis and alignment), which then has the cores to
    // itself; the rest still come long before the frames reach them.
    // (Each derives from the first directly: no promise of its own that could go unhandled.)
    this.pending = [firstSpoken, ...rest.map((c) => firstSpoken.then(() => speech.speak(c, voice, signal)))];
    // Later chunks are awaited one by one; one failing (or a cancel) must not go unhandled meanwhile.
    for (const p of this.pending) p.catch(() => undefined);
  }

  get done(): boolean {
    return this.taken === this.pending.length;
  }

  /** Waits for the next chunk and appends it to the timeline; null when all were taken. */
  async next(): Promise<NarrationChunk | null> {
    if (this.done) return null;
    const sp = await this.pending[this.taken++]!;
    const tl = this.timeline;
    const offset = tl.durationSeconds;
    const shift = <T extends TimedWord | TimedPhoneme>(x: T): T => ({ ...x, start: x.start + offset, end: x.end + offset });
    const words = sp.timeline.words.map(shift);
    const firstWord = tl.words.length;
    tl.words.push(...words);
    tl.phonemes.push(...sp.timeline.phonemes.map(shift));
    let samples = sp.samples;
    if (!this.done && this.sentenceEnds[this.taken - 1]) {
      const pause = Math.round(joinPauseSeconds(this.voice.espeak) * sp.sampleRate);
      samples = new Int16Array(sp.samples.length + pause);
      samples.set(sp.samples);
    }
    tl.durationSeconds = offset + samples.length / sp.sampleRate;
    return { samples, sampleRate: sp.sampleRate, words, firstWord };
  }
}
