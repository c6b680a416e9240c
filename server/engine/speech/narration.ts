// The narration spoken chunk by chunk, so a render starts encoding after the first sentence is
// spoken instead of after the whole script: the script is split at sentence ends, the first
// chunk is asked for alone and the others all at once when it is ready, and the render takes
// them in order as its frames reach them. Chunks end at sentence ends (or cut an over-long
// sentence), where captions end a page anyway, so the caption pages are those of the script.
import { endsSentence, endsSentenceBefore, type SpeechTimeline, type TimedPhoneme, type TimedWord } from '../../../shared/scene/index.js';
import type { Speech } from './speech.js';
import { Leveler } from './loudness.js';
import { appendLoudness, LOUDNESS_RATE, loudnessLevels } from './loudness-track.js';
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
 * 4,900-character sentence kept a Pico render from its first frame for 21 s and its engine
 * process peaked at 611 MB. Chinese and Japanese, written without spaces, are cut after their
 * own sentence and clause marks (。！？，、；：) too: a 4,900-character Chinese script was one
 * chunk of 25 minutes. A piece without letters or digits ("…") stays with the sentence before
 * it, so every chunk is something espeak can say. The chunks hold every token of the script, in
 * order; joined with single spaces they are the script, except that a cut inside such a run of
 * CJK text has no space.
 */
export function scriptChunks(text: string): string[] {
  const sentences: Unit[] = [];
  let current: Unit[] = [];
  const close = () => {
    if (current.length) sentences.push(...cutLong(current, sentences.length ? CHUNK_CHARS : FIRST_CHUNK_CHARS));
    current = [];
  };
  const units = scriptUnits(text);
  units.forEach((unit, i) => {
    current.push(unit);
    if (endsSentenceBefore(unit.text, units[i + 1]?.text)) close();
  });
  close();
  const speakable = (s: string) => /[\p{L}\p{N}]/u.test(s);
  const merged: Unit[] = [];
  const join = (a: Unit, b: Unit): Unit => ({ text: a.text + b.gap + b.text, gap: a.gap });
  for (const s of sentences) {
    if (merged.length && !speakable(s.text)) merged[merged.length - 1] = join(merged[merged.length - 1]!, s);
    else merged.push(s);
  }
  if (merged.length > 1 && !speakable(merged[0]!.text)) merged.splice(0, 2, join(merged[0]!, merged[1]!));
  const chunks: Unit[] = [];
  for (const s of merged) {
    const last = chunks.length - 1;
    // The first sentence stays alone; later ones gather up to CHUNK_CHARS.
    if (last >= 1 && chunks[last]!.text.length + s.gap.length + s.text.length <= CHUNK_CHARS) chunks[last] = join(chunks[last]!, s);
    else chunks.push(s);
  }
  return chunks.length ? chunks.map((c) => c.text) : [text];
}

/** Script text (a word, part of a CJK run, or several of them) and what separates it from the text before. */
interface Unit {
  text: string;
  gap: '' | ' ';
}

/** The script's tokens, CJK runs cut after their sentence and clause marks (those parts follow without a space). */
function scriptUnits(text: string): Unit[] {
  return text
    .split(/\s+/u)
    .filter(Boolean)
    .flatMap((token) => token.split(CJK_CUT).map((part, i): Unit => ({ text: part, gap: i ? '' : ' ' })));
}
/** After a full-width sentence or clause mark (and its closing quotes) when more of the run follows. */
const CJK_CUT = /(?<=[。！？，、；：]["'»)\]」』”’）]*)(?=[^"'»)\]」』”’）])/u;

const endsClause = (token: string) => /[,;:\u2013\u2014\u3001\uFF0C\uFF1B\uFF1A\u060C]["'»)\]」』”’）]*$/u.test(token);

/**
 * A sentence's units as pieces of at most `limit` characters (a single longer unit stays
 * whole): each cut after the last clause mark in the second half of the piece, else between
 * the last two units that fit. The first piece may be shorter (`first`, for a quick start).
 */
function cutLong(units: Unit[], first: number): Unit[] {
  const pieces: Unit[] = [];
  let limit = first;
  let start = 0;
  const size = (from: number, to: number) => units.slice(from, to).reduce((n, u, i) => n + (i ? u.gap.length : 0) + u.text.length, 0);
  while (start < units.length) {
    let end = start + 1;
    while (end < units.length && size(start, end + 1) <= limit) end++;
    if (end < units.length) {
      for (let k = end - 1; k > start && size(start, k + 1) > limit / 2; k--) {
        if (endsClause(units[k]!.text)) {
          end = k + 1;
          break;
        }
      }
    }
    const part = units.slice(start, end);
    pieces.push({ text: part.map((u, i) => (i ? u.gap : '') + u.text).join(''), gap: part[0]!.gap });
    start = end;
    limit = CHUNK_CHARS;
  }
  return pieces;
}

/** The pause espeak leaves between two sentences of one text, beyond what a chunk ends with (kept for every engine, and between scenes). */
export function joinPauseSeconds(voice: EspeakVoice): number {
  return (0.25 * 175) / Math.max(80, voice.rate);
}

export interface NarrationChunk {
  /**
   * The chunk's audio at the narration's loudness, with the pause that follows it when another
   * chunk comes next. Levelled when first asked for, so a render's first frame need not wait for
   * it; chunks are levelled in order (the loudness so far carries over), a later one first
   * levels those before it.
   */
  audio(): Int16Array;
  sampleRate: number;
  /** Its words (indices from `firstWord` in the whole timeline), already at their times in the narration. */
  words: TimedWord[];
  firstWord: number;
}

export class Narration {
  /** Everything spoken so far; grows with every chunk taken. */
  readonly timeline: SpeechTimeline = { durationSeconds: 0, words: [], phonemes: [], loudness: { rate: LOUDNESS_RATE, values: [] } };
  private readonly pending: Promise<Speech>[];
  /** Whether each chunk ends a sentence (a long sentence's pieces are joined without the sentence pause). */
  private readonly sentenceEnds: boolean[];
  private taken = 0;
  /** Every voice at the same loudness, whatever its engine. */
  private readonly leveler = new Leveler();
  /**
   * Each taken chunk's audio: as spoken, then as levelled (in order, see NarrationChunk.audio),
   * then null once handed out (a long narration's audio is not held twice).
   */
  private readonly audios: { spoken: Int16Array | null; pause: number; levelled: Int16Array | null }[] = [];

  constructor(speech: Pick<SpeechEngines, 'speak'>, text: string, private readonly voice: EngineVoice, signal: AbortSignal) {
    const chunks = scriptChunks(text);
    this.sentenceEnds = chunks.map((c) => endsSentence(c));
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
    appendLoudness(tl.loudness!, offset, loudnessLevels(sp.samples, sp.sampleRate));
    const pause = !this.done && this.sentenceEnds[this.taken - 1] ? Math.round(joinPauseSeconds(this.voice.espeak) * sp.sampleRate) : 0;
    const index = this.audios.length;
    this.audios.push({ spoken: sp.samples, pause, levelled: null });
    tl.durationSeconds = offset + (sp.samples.length + pause) / sp.sampleRate;
    return { audio: () => this.levelledAudio(index, sp.sampleRate), sampleRate: sp.sampleRate, words, firstWord };
  }

  private levelledAudio(index: number, rate: number): Int16Array {
    for (const a of this.audios.slice(0, index + 1)) {
      if (!a.spoken) continue; // levelled already
      const levelled = this.leveler.level(a.spoken, rate);
      a.spoken = null;
      a.levelled = a.pause ? new Int16Array(levelled.length + a.pause) : levelled;
      if (a.pause) a.levelled.set(levelled);
    }
    const a = this.audios[index]!;
    const out = a.levelled;
    if (!out) throw new Error(`The audio of narration chunk ${index} was taken already.`);
    a.levelled = null;
    return out;
  }
}
