// The speech worker thread: a thread that dies while a request is out is replaced and the
// request answered anyway, so a render does not fail for it.
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Narration, scriptChunks } from '../speech/narration.js';
import { SpeechSynth, type Speech } from '../speech/speech.js';
import { espeakText, UNSAID_SIGNS } from '../speech/espeak-text.js';
import { EngineError } from '../types.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { catalogVoices, engineVoice, espeakVoice } from '../speech/voices.js';
import { spokenScript } from '../../../shared/scene/index.js';

/** A script and the words a person would say for it, in a catalog voice. */
type Heard = [voice: string, script: string, words: string];

/** Each script sounds like its words through espeak's phonemes (stress and word joins aside). */
async function expectHeardAlike(heard: Heard[]): Promise<void> {
  const phonemes = (ipa: string) => ipa.replace(/[ˈˌ_\s]/g, '');
  await withSynth(async (synth) => {
    for (const [id, script, words] of heard) {
      const voice = espeakVoice(id)!;
      expect(phonemes(await synth.ipa(script, voice)), script).toBe(phonemes(await synth.ipa(words, voice)));
    }
  });
}

const TEXT = 'Good evening. Here is the news, read slowly enough to take a moment.';

/** Runs f with a fresh espeak synthesiser, closed afterwards whatever happens. */
async function withSynth(f: (synth: SpeechSynth) => Promise<void>): Promise<void> {
  const synth = new SpeechSynth();
  try {
    await f(synth);
  } finally {
    await synth.close();
  }
}

describe('speech synthesis', () => {
  it('recovers when its worker thread dies mid-request', async () => {
    await withSynth(async (synth) => {
      const pending = synth.synthesize(TEXT, espeakVoice('en-US-Ava')!);
      const internals = synth as unknown as { worker: Worker | null };
      while (!internals.worker) await new Promise((r) => setTimeout(r, 1));
      await internals.worker.terminate(); // as if the thread crashed
      const speech = await pending;
      expect(speech.samples.length / speech.sampleRate).toBeGreaterThan(2);
      expect(speech.timeline.words.map((w) => w.text).join(' ')).toBe(TEXT);
    });
  });

  it('says a text the same whatever its worker said before, in espeak, SVOX Pico and Flite (a render sounds and moves the same each time)', async () => {
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      for (const id of ['en-GB-Ryan', 'en-US-Lisa', 'en-US-Richard']) {
        const voice = engines.voice(id);
        const first = await engines.speak(TEXT, voice);
        await engines.speak('Something else entirely, said in between.', voice);
        await engines.speak(TEXT, engines.voice(id === 'en-GB-Ryan' ? 'en-US-Ava' : 'en-GB-Ryan'));
        const again = await engines.speak(TEXT, voice);
        expect(Buffer.from(again.samples.buffer).equals(Buffer.from(first.samples.buffer)), id).toBe(true);
        expect(again.timeline, id).toEqual(first.timeline);
      }
    } finally {
      await engines.close();
    }
  });

  /** The script's words as captions show them: a lone dash goes with the word before it. */
  const dashKept = (text: string) => text.replace(/ — /g, '\u0000— ').split(' ').map((w) => w.replace('\u0000', ' '));

  it('times every word of the script, also those espeak says in one breath with a neighbour', async () => {
    await withSynth(async (synth) => {
      // espeak reports "of the" and "with the" as one word each; captions need both words.
      const text = 'A quick test of the new voice, with the head moving: 1,250 people came — twenty-one of them late.';
      const { timeline } = await synth.synthesize(text, espeakVoice('en-GB-Ryan')!);
      expect(timeline.words.map((w) => w.text)).toEqual(dashKept(text));
      for (let i = 0; i < timeline.words.length; i++) {
        const w = timeline.words[i]!;
        expect(w.end).toBeGreaterThan(w.start);
        if (i) expect(w.start).toBeGreaterThanOrEqual(timeline.words[i - 1]!.end - 1e-9);
      }
      expect(timeline.words.at(-1)!.end).toBeLessThanOrEqual(timeline.durationSeconds);
    });
  });

  it('captions the signs a voice reads out ("&", "%", "+", "€"), a lone dash with the word before it', async () => {
    await withSynth(async (synth) => {
      const text = 'Tom & Jerry grew 5 % in Q3 — that is + 12 € a week.';
      const { timeline } = await synth.synthesize(text, espeakVoice('en-US-Ava')!);
      expect(timeline.words.map((w) => w.text)).toEqual(dashKept(text));
      for (let i = 1; i < timeline.words.length; i++) expect(timeline.words[i]!.start).toBeGreaterThanOrEqual(timeline.words[i - 1]!.start);
    });
  });

  it('reads a script as plain text: words in angle brackets are spoken, and every sign the captions show is heard while it is lit', async () => {
    // espeak used to take "<Enter>" or "a<b. Profit < cost, and 5 >" for markup and skip it (and
    // SVOX Pico's timings, aligned to espeak's, then lit the wrong words), and to say nothing for
    // "<", ">" and "=" while the captions showed them.
    const text = 'Press the <Enter> key, then type a<b. Profit < cost, and 5 > 3. Tom & Jerry = friends.';
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      for (const id of ['en-US-Ava', 'en-US-Lisa', 'de-DE-Katja']) {
        const { timeline } = await engines.speak(text, engines.voice(id));
        expect(timeline.words.map((w) => w.text)).toEqual(text.split(' '));
        for (const w of timeline.words) expect(w.end - w.start, `${id}: "${w.text}"`).toBeGreaterThan(/[<>&=]/.test(w.text) ? 0.15 : 0.05);
        for (let i = 1; i < timeline.words.length; i++) expect(timeline.words[i]!.start).toBeGreaterThanOrEqual(timeline.words[i - 1]!.end - 1e-9);
      }
    } finally {
      await engines.close();
    }
  });

  it('says the multiplication sign in every espeak language, lit while it is said, and the signs a language leaves unsaid', async () => {
    // espeak's Spanish, Italian, Japanese and Chinese said nothing for "×" ("3 * 4" is shown as
    // "3 × 4"): "tres cuatro". Measured: the sign added no time to the audio.
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      for (const id of ['es-ES-Elvira', 'it-IT-Giulia', 'ja-JP-Nanami', 'zh-CN-Xiaoxiao', 'en-US-Ava', 'es-ES-Zoe']) {
        const voice = engines.voice(id);
        const times = await engines.speak('3 × 4 = 12, 2×3.', voice);
        const plain = await engines.speak('3 4 = 12, 2 3.', voice);
        expect(times.timeline.durationSeconds - plain.timeline.durationSeconds, id).toBeGreaterThan(0.3);
        const words = times.timeline.words;
        expect(words.map((w) => w.text), id).toEqual(['3', '×', '4', '=', '12,', '2×3.']);
        expect(words[1]!.end - words[1]!.start, id).toBeGreaterThan(0.1);
        for (let i = 1; i < words.length; i++) expect(words[i]!.start, id).toBeGreaterThanOrEqual(words[i - 1]!.end - 1e-9);
      }
      // Every sign a language's dictionary leaves unsaid ("Tom & Jerry" was "Tom Jerry" in French).
      for (const [lang, signs] of Object.entries(UNSAID_SIGNS)) {
        const voice = catalogVoices().find((v) => v.engine === 'espeak' && v.espeak.voice === lang)!;
        // A comma after the sign: a currency sign before a number is said after it.
        const plain = await engines.speak('7, 7', voice);
        for (const [sign, word] of Object.entries(signs)) {
          const said = (await engines.speak(`7 ${sign}, 7`, voice)).timeline.durationSeconds;
          const asWord = (await engines.speak(`7 ${word}, 7`, voice)).timeline.durationSeconds;
          expect(asWord - plain.timeline.durationSeconds, `${lang} ${word}`).toBeGreaterThan(0.04); // French "et" is short
          expect(Math.abs(said - asWord), `${lang} ${sign}`).toBeLessThan(0.02);
        }
      }
    } finally {
      await engines.close();
    }
  });

  it('reads English amounts, titles, "vs.", "2x", "24/7", "~5" and "#1" as said, each caption word lit while it is said', async () => {
    // Heard through espeak's phonemes before: "Mr. | Smith" (a sentence's pause), "V S",
    // "two ex faster", "twenty-four slash seven", "tilde five", "hash one", "hash hashtag".
    const given = espeakText('Ask Mr. Smith: 2x faster, 24/7, ~5 min, #1 vs. #launch 🎉 ok.', 'en-us');
    expect(given.text).toBe('Ask Mr Smith: 2 times faster, 24 7, about 5 minutes, number 1 versus launch 🎉 ok.');
    // What espeak says maps back to the script's characters it came from (positions in code
    // points, as espeak counts them; the emoji is two UTF-16 units).
    const script = 'Ask Mr. Smith: 2x faster, 24/7, ~5 min, #1 vs. #launch 🎉 ok.';
    const codePoint = (text: string, part: string) => Array.from(text.slice(0, text.indexOf(part))).length;
    const at = (part: string) => given.scriptPosition(codePoint(given.text, part) + 1) - 1;
    expect(at('times')).toBe(codePoint(script, 'x'));
    expect(at('about')).toBe(codePoint(script, '~'));
    expect(at('versus')).toBe(codePoint(script, 'vs.'));
    expect(at('ok.')).toBe(codePoint(script, 'ok.'));
    expect(espeakText('No. Not now.', 'en-us').text).toBe('No. Not now.'); // "No." ends a sentence here
    // Amounts were "dollar five", "dollar five M", "pound two B N".
    expect(espeakText('Raised $5M, £2bn and $1 (not US$5).', 'en-us').text).toBe('Raised 5 million dollars, 2 billion pounds and 1 dollar (not US$5).');
    expect(espeakText('Ask Mr. Smith.', 'de').text).toBe('Ask Mr. Smith.'); // English only
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      const { timeline } = await engines.speak('Ask Mr. Smith, 2x faster.', engines.voice('en-US-Ava'));
      const w = timeline.words;
      expect(w.map((x) => x.text)).toEqual(['Ask', 'Mr.', 'Smith,', '2x', 'faster.']);
      expect(w[2]!.start - w[1]!.end).toBeLessThan(0.05); // no sentence pause after the title
      expect(w[3]!.end - w[3]!.start).toBeGreaterThan(0.3); // "two times"
    } finally {
      await engines.close();
    }
  });

  it('says English dates, years, decades, times, ranges, cents, units, scales, fractions and abbreviations as a person would', async () => {
    // Heard through espeak's phonemes before: "zero three slash zero four slash two thousand...",
    // "nineteen hundred ninety" (1990), "nineteen hundred ninety z" (1990s), "ten zero zero",
    // "five dash ten", "zero point nine nine dollars", "ten K G", "one point five M", "one
    // slash two", "U X slash U I", "jan | five" (a sentence's end), "world war roman two", "sixteen
    // colon nine", "B two billion" (B2B). Each pair must sound alike.
    const heard: Heard[] = [
      ['en-US-Ava', 'It was 03/04/2026.', 'It was March fourth, two thousand twenty-six.'],
      ['en-GB-Sonia', 'It was 03/04/2026.', 'It was the third of April 2026.'],
      ['en-US-Ava', 'On 2026-11-23 we met.', 'On November twenty-third, two thousand twenty-six we met.'],
      ['en-US-Ava', 'Jan. 5 was fine.', 'January fifth was fine.'],
      ['en-US-Ava', 'We met in 1990, back in 1905.', 'We met in nineteen ninety, back in nineteen oh five.'],
      ['en-US-Ava', "The 1990s, the 2010s, the '80s and the 1800s.", 'The nineteen nineties, the twenty tens, the eighties and the eighteen hundreds.'],
      ['en-US-Ava', 'From 1990-1995.', 'From nineteen ninety to nineteen ninety-five.'],
      ['en-US-Ava', 'It costs $1.50, or $0.99.', 'It costs one dollar and fifty cents, or ninety-nine cents.'],
      ['en-US-Ava', 'We raised $5-10M.', 'We raised five to ten million dollars.'],
      ['en-US-Ava', 'At 10:00 or 10:05.', "At ten o'clock or ten oh five."],
      ['en-US-Ava', 'Read pages 5-10 in 2-3 days.', 'Read pages five to ten in two to three days.'],
      ['en-US-Ava', 'Drive 60 km/h for 2 hrs in 25°C.', 'Drive sixty kilometers per hour for two hours in twenty-five degrees Celsius.'],
      ['en-US-Ava', 'We have 1.5M users and 16GB.', 'We have one point five million users and sixteen gigabytes.'],
      ['en-US-Ava', 'See Fig. 3 on p. 5.', 'See figure three on page five.'],
      ['en-US-Ava', 'Climb Mt. Fuji with Lt. Dan.', 'Climb Mount Fuji with Lieutenant Dan.'],
      ['en-US-Ava', 'Add 1/2 cup, rated 4/5 stars.', 'Add one half cup, rated four out of five stars.'],
      ['en-US-Ava', 'UX/UI and/or design w/o code.', 'UX UI and or design without code.'],
      ['en-US-Ava', 'After World War II, Henry VIII and Super Bowl LVIII.', 'After World War two, Henry the eighth and Super Bowl fifty-eight.'],
      ['en-US-Ava', 'Shot in 16:9 or 9:16, a 3:1 ratio, a 5x5 grid.', 'Shot in sixteen by nine or nine by sixteen, a three to one ratio, a five by five grid.'],
      ['en-US-Ava', 'A B2B firm.', 'A B two B firm.'],
    ];
    await expectHeardAlike(heard);
  });

  it('says dates, times, ranges, units, abbreviations and amounts in the other languages as a person would', async () => {
    // Heard before: "null drei Punkt null vier Punkt…", "zehn null null Uhr", "D R | Müller",
    // "eintausend neunhundert neunzig" (a year), "Euro fünf Komma neun neun", "dix ache trente",
    // "cero tres barra cero cuatro barra…", "real dólar cinco", "zet eł", "五十 percent", "一百"
    // for "¥100". Numbers mostly stay digits on both sides: what is checked is what is said around them.
    const heard: Heard[] = [
      ['de-DE-Katja', 'Am 03.04.2026 um 10:00 Uhr.', 'Am dritten April 2026 um 10 Uhr.'],
      ['de-DE-Katja', 'Im Jahr 1990, die 1990er.', 'Im Jahr neunzehnhundertneunzig, die neunzehnhundertneunziger.'],
      ['de-DE-Katja', 'Z.B. 5-10 kg, Dr. Müller, usw.', 'Zum Beispiel 5 bis 10 Kilogramm, Doktor Müller, und so weiter.'],
      ['de-DE-Katja', 'Es kostet €5,99 und 16 GB.', 'Es kostet 5 Euro 99 und 16 Gigabait.'],
      ['de-DE-Katja', 'Ludwig XIV und Kapitel IV.', 'Ludwig der vierzehnte und Kapitel vier.'], // was "römisch vierzehn"
      ['nl-NL-Fenna', 'Lodewijk XIV.', 'Lodewijk de veertiende.'], // was spelled "X I V"
      ['fr-FR-Denise', 'Le 03/04/2026 à 10h30, M. Dupont, de 5-10 €.', 'Le 3 avril 2026 à 10 heures 30, Monsieur Dupont, de 5 à 10 €.'],
      ['es-ES-Elvira', 'El 03/04/2026 a las 10:30, Sr. García.', 'El 3 de abril de 2026 a las 10 y 30, señor García.'],
      ['es-ES-Elvira', '1.º, 2.ª, Felipe VI.', 'primero, segunda, Felipe sexto.'], // was "uno punto o", "Felipe vi"
      ['fr-FR-Denise', 'Le 2e étage, la 3ème place, au XXe siècle, le 21e.', 'Le deuxième étage, la troisième place, au vingtième siècle, le vingt et unième.'],
      ['it-IT-Giulia', 'Il 01/04/2026 alle 10:30, 5-10 km.', 'Il primo aprile 2026 alle 10 e 30, 5 a 10 chilometri.'],
      ['pt-BR-Francisca', 'Em 03/04/2026 às 10h30, R$ 5,99.', 'Em 3 de abril de 2026 às 10 horas e 30, 5 reais e 99 centavos.'],
      ['nl-NL-Fenna', 'Op 03-04-2026 om 10:30 uur, 5-10 km.', 'Op 3 april 2026 om 10 uur 30, 5 tot 10 kilometer.'],
      ['pl-PL-Zofia', 'W XXI wieku.', 'W dwudziestym pierwszym wieku.'], // was spelled "iks iks i"
      ['pl-PL-Zofia', 'Dnia 03.04.2026, 5 zł, np. dr Kowalski.', 'Dnia trzeciego kwietnia 2026, 5 złotych, na przykład doktor Kowalski.'],
      ['ja-JP-Nanami', '$5 です', '5 ドル です'],
      ['ja-JP-Nanami', '2026-11-23 4:30、5-10、50%、¥100。', '2026ねん じゅういちがつ 23にち よじ 30ぷん、5 から 10、50 パーセント、100 えん。'],
      ['zh-CN-Xiaoxiao', '2026年11月23日10:30，5-10，50%，¥100。', '二零二六年十一月二十三日十点三十分，五到十，百分之五十，一百元。'],
    ];
    await expectHeardAlike(heard);
  });

  it('has SVOX Pico read what espeak reads, so every voice says a date alike and its timings fit its audio', async () => {
    // Pico read "1/2" and "5-10" its own way (2.00 s against 1.63 s for "one half") while its
    // captions were timed from espeak's reading of the words.
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      const voice = engines.voice('en-US-Lisa');
      for (const [script, words] of [['Add 1/2 cup.', 'Add one half cup.'], ['Read pages 5-10.', 'Read pages five to ten.']]) {
        const [a, b] = [await engines.speak(script!, voice), await engines.speak(words!, voice)];
        expect(Math.abs(a.timeline.durationSeconds - b.timeline.durationSeconds), script).toBeLessThan(0.08);
      }
    } finally {
      await engines.close();
    }
  });

  it('reads no emoji out (espeak said "party popper"), yet keeps each one a caption word', async () => {
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      for (const id of ['en-US-Ava', 'en-US-Lisa']) {
        const voice = engines.voice(id);
        const withEmoji = await engines.speak('Great news 🎉 today 👍, we ❤️ it 👩‍💻.', voice);
        const plain = await engines.speak('Great news today, we it.', voice);
        expect(Math.abs(withEmoji.timeline.durationSeconds - plain.timeline.durationSeconds), id).toBeLessThan(0.05);
        expect(withEmoji.timeline.words.map((w) => w.text)).toEqual(['Great', 'news', '🎉', 'today', '👍,', 'we', '❤️', 'it', '👩‍💻.']);
      }
    } finally {
      await engines.close();
    }
  });

  it('speaks British English in an en-GB voice after an American one (a voice espeak cannot find is never skipped silently)', async () => {
    await withSynth(async (synth) => {
      // "water": American English flaps the t and keeps the r (ɾɚ); British English does neither.
      expect(await synth.ipa('water', espeakVoice('en-US-Ava')!)).toContain('ɾ');
      const british = await synth.ipa('water', espeakVoice('en-GB-Ryan')!);
      expect(british).toContain('t');
      expect(british).not.toMatch(/[ɾɚ]/u);
      await expect(synth.synthesize(TEXT, { ...espeakVoice('en-GB-Ryan')!, voice: 'en-xx' })).rejects.toThrow(/voice "en-xx\+m1"/);
      // The worker stays usable after refusing a voice.
      expect((await synth.synthesize(TEXT, espeakVoice('en-US-Ava')!)).timeline.words.length).toBe(TEXT.split(' ').length);
    });
  });

  describe('warm-up', () => {
    const texts = Array.from({ length: 12 }, (_, i) => `Warm-up sentence number ${i + 1}, spoken before any render asks.`);

    it('speaks its texts in the background and keeps the worker afterwards', async () => {
      const synth = new SpeechSynth(Infinity, { texts: texts.slice(0, 3), voice: espeakVoice('en-US-Ava')! });
      try {
        expect(await synth.warmUp()).toBe(3);
        const internals = synth as unknown as { worker: Worker | null };
        const worker = internals.worker;
        expect(worker).not.toBeNull();
        await synth.synthesize(TEXT, espeakVoice('en-US-Ava')!);
        expect(internals.worker).toBe(worker); // not let go when idle
        expect(await synth.warmUp()).toBe(0); // already warm: nothing spoken again
      } finally {
        await synth.close();
      }
    });

    it('waits while a render runs, then speaks the rest', async () => {
      // A queued job resumed as the studio starts: Pico's warm-up (~1 s of CPU) ran beside it.
      let open = () => undefined as void;
      let gate = new Promise<void>((resolve) => (open = resolve));
      const synth = new SpeechSynth(Infinity, { texts: texts.slice(0, 3), voice: espeakVoice('en-US-Ava')!, whenIdle: () => gate });
      try {
        let spoken: number | null = null;
        const warming = synth.warmUp().then((n) => (spoken = n));
        await new Promise((r) => setTimeout(r, 300));
        expect(spoken).toBeNull();
        expect((synth as unknown as { worker: Worker | null }).worker).toBeNull(); // not even started
        open();
        gate = Promise.resolve();
        await warming;
        expect(spoken).toBe(3);
      } finally {
        await synth.close();
      }
    });

    it('of a warm studio loads and warms SVOX Pico too (a new draft\'s voice in five languages), after espeak', async () => {
      const espeak = new SpeechSynth(Infinity, { texts: texts.slice(0, 2), voice: espeakVoice('en-US-Ava')! });
      const engines = new SpeechEngines(espeak, { warm: true });
      try {
        await engines.warmUp();
        const pico = engines.pico as unknown as { worker: Worker | null };
        const worker = pico.worker;
        expect(worker).not.toBeNull();
        expect(await engines.pico.warmUp()).toBe(0); // its warm-up texts were spoken already
        const lisa = await engines.speak(TEXT, engines.voice('en-US-Lisa'));
        expect(lisa.timeline.words.map((w) => w.text).join(' ')).toBe(TEXT);
        expect(pico.worker).toBe(worker); // the warmed worker spoke it
        // A studio that is not kept warm (tests, one-off tools) starts no Pico worker.
        const cold = new SpeechEngines(espeak);
        await cold.warmUp();
        expect((cold.pico as unknown as { worker: Worker | null }).worker).toBeNull();
        await cold.pico.close();
      } finally {
        await engines.close();
      }
    });

    it('gives way to a request that comes in meanwhile', async () => {
      const synth = new SpeechSynth(Infinity, { texts, voice: espeakVoice('en-US-Ava')! });
      try {
        const warming = synth.warmUp();
        const speech = await synth.synthesize(TEXT, espeakVoice('en-GB-Ryan')!);
        expect(speech.timeline.words.map((w) => w.text).join(' ')).toBe(TEXT);
        expect(await warming).toBeLessThan(2); // stopped after the text it was speaking
      } finally {
        await synth.close();
      }
    });

    it('warms a fresh worker after a cancel killed the last one, and ends quietly on close', async () => {
      const synth = new SpeechSynth(Infinity, { texts: texts.slice(0, 2), voice: espeakVoice('en-US-Ava')! });
      try {
        await synth.warmUp();
        const internals = synth as unknown as { worker: Worker | null };
        const before = internals.worker;
        const abort = new AbortController();
        const pending = synth.synthesize(TEXT.repeat(20), espeakVoice('en-US-Ava')!, abort.signal);
        await new Promise((r) => setTimeout(r, 50));
        abort.abort();
        await expect(pending).rejects.toMatchObject({ code: 'canceled' });
        await new Promise((r) => setImmediate(r));
        expect(await synth.warmUp()).toBe(2);
        expect(internals.worker).not.toBeNull();
        expect(internals.worker).not.toBe(before);
        const again = synth.warmUp();
        await synth.close();
        await expect(again).resolves.toBeGreaterThanOrEqual(0);
        await expect(synth.synthesize(TEXT, espeakVoice('en-US-Ava')!)).rejects.toMatchObject({ code: 'canceled' });
      } finally {
        await synth.close();
      }
    });
  });
});

describe('narration chunks', () => {
  it('pause after a heading or a list item on its own line, as after a sentence, but run on through a wrapped line', async () => {
    const engines = new SpeechEngines(new SpeechSynth());
    const gaps = async (script: string) => {
      const n = new Narration(engines, spokenScript(script), engineVoice('en-US-Ava')!, new AbortController().signal);
      while (await n.next());
      const w = n.timeline.words;
      return Object.fromEntries(w.slice(1).map((x, i) => [w[i]!.text, x.start - w[i]!.end]));
    };
    try {
      // Read as one phrase before ("changed Faster renders Better captions").
      const list = await gaps('Three things changed\n- Faster renders\n- Better captions');
      expect(Object.keys(list)).toEqual(['Three', 'things', 'changed', 'Faster', 'renders', 'Better']);
      for (const end of ['changed', 'renders']) expect(list[end], end).toBeGreaterThan(0.25);
      // And each line is a caption page of its own: its last word ends the page.
      const n = new Narration(engines, spokenScript('Three things changed\n- Faster renders\n- Better captions'), engineVoice('en-US-Ava')!, new AbortController().signal);
      while (await n.next());
      expect(n.timeline.words.filter((w) => w.pageEnd).map((w) => w.text)).toEqual(['changed', 'renders']);
      const wrapped = await gaps('This sentence was wrapped by\nan email client.');
      expect(wrapped.by).toBeLessThan(0.05);
      // A pipe standing alone is a short pause (espeak ran "Home About Contact" together).
      const piped = await gaps('Home | About | Contact');
      expect(Object.keys(piped)).toEqual(['Home', 'About']);
      for (const w of ['Home', 'About']) expect(piped[w], w).toBeGreaterThan(0.1);
    } finally {
      await engines.close();
    }
  });

  it('whose first sentence fails (a cancel) leave no rejection unhandled, also for a one-sentence script', async () => {
    // An unhandled rejection ends the studio's process: a canceled one-sentence render did.
    const canceled = () => Promise.reject(new EngineError('canceled', 'The render was canceled.'));
    for (const script of ['Just one sentence.', 'First one. Then another.']) {
      const narration = new Narration({ speak: canceled }, script, engineVoice('en-US-Ava')!, new AbortController().signal);
      await expect(narration.next()).rejects.toMatchObject({ code: 'canceled' });
    }
    await new Promise((r) => setTimeout(r, 20)); // where an unhandled one would be reported
  });

  it('ask for the first sentence alone, and for the rest once it is spoken (it has the cores to itself)', async () => {
    const espeak = new SpeechSynth();
    const engines = new SpeechEngines(espeak);
    const asked: string[] = [];
    const speech: Pick<SpeechEngines, 'speak'> = {
      speak: (text, voice, signal) => {
        asked.push(text);
        return engines.speak(text, voice, signal);
      },
    };
    try {
      const script = 'First things first. Then the second sentence. And a third one to finish.';
      const narration = new Narration(speech, script, engineVoice('en-US-Ava')!, new AbortController().signal);
      expect(asked).toEqual(['First things first.']);
      const first = await narration.next();
      expect(first!.words.map((w) => w.text)).toEqual(['First', 'things', 'first.']);
      await new Promise((r) => setImmediate(r));
      expect(asked).toEqual(scriptChunks(script)); // the rest, all at once
      while (await narration.next());
      expect(narration.timeline.words.map((w) => w.text).join(' ')).toBe(script);
    } finally {
      await engines.close();
    }
  });

  it('level each chunk in order whenever its audio is asked for, and hand it out once', async () => {
    // A render takes the first sentence's words at once and its audio after the first frame.
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      const script = 'A quiet first sentence. Then a second one, somewhat longer than the first. And a third.';
      // The same speech for both narrations (a cold and a warm espeak may differ in a few samples).
      const spoken = new Map<string, Promise<Speech>>();
      const speech: Pick<SpeechEngines, 'speak'> = {
        speak: (text, voice, signal) => spoken.get(text) ?? spoken.set(text, engines.speak(text, voice, signal)).get(text)!,
      };
      const taken = async () => {
        const n = new Narration(speech, script, engineVoice('en-US-Ava')!, new AbortController().signal);
        const chunks = [];
        for (let c = await n.next(); c; c = await n.next()) chunks.push(c);
        return { n, chunks };
      };
      const inOrder = (await taken()).chunks.map((c) => c.audio());
      const { n, chunks } = await taken();
      expect(chunks).toHaveLength(2); // the first sentence alone, then the rest
      const late = [chunks[1]!.audio(), chunks[0]!.audio()];
      const same = (a: Int16Array, b: Int16Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
      expect(same(late[1]!, inOrder[0]!) && same(late[0]!, inOrder[1]!)).toBe(true);
      expect(inOrder.reduce((s, a) => s + a.length, 0) / 22050).toBeCloseTo(n.timeline.durationSeconds, 6);
      expect(() => chunks[0]!.audio()).toThrow(/taken already/);
    } finally {
      await engines.close();
    }
  });

  it('split a script at sentence ends, the first sentence alone, keeping every token', () => {
    const long = Array.from({ length: 12 }, (_, i) => `Sentence number ${i} says a little more about the plan.`).join(' ');
    const script = `Hello there! ${long} … And "quoted?" (done.) Last words without a stop`;
    const chunks = scriptChunks(script);
    expect(chunks[0]).toBe('Hello there!');
    expect(chunks.join(' ')).toBe(script.split(/\s+/).join(' '));
    for (const c of chunks.slice(1)) expect(c.length).toBeLessThanOrEqual(400);
    // Every chunk but the last ends a sentence (so it ends a caption page) and can be spoken.
    for (const c of chunks.slice(0, -1)) expect(c).toMatch(/[.!?…]["'»)\]]*$/);
    for (const c of chunks) expect(c).toMatch(/[\p{L}\p{N}]/u);
    expect(chunks.some((c) => c.includes('plan. …'))).toBe(true); // a lone "…" stays with its sentence
    expect(scriptChunks('One sentence without a stop')).toEqual(['One sentence without a stop']);
  });

  it('keep an abbreviation with the word after it: its full stop ends no sentence, so no pause and no chunk ends there', async () => {
    // The first sentence was cut at "Mr." and "Dr.": spoken alone ("Ask Mister", a sentence's
    // pause, "Smith"), and the rewrite to "Doktor" never saw the name after it.
    expect(scriptChunks('Ask Mr. Smith now. Then go.')).toEqual(['Ask Mr. Smith now.', 'Then go.']);
    expect(scriptChunks('Am 3. April kommen wir. Gut.')).toEqual(['Am 3. April kommen wir.', 'Gut.']);
    expect(scriptChunks('See Fig. 3, No. 5 and e.g. this. Done.')).toEqual(['See Fig. 3, No. 5 and e.g. this.', 'Done.']);
    expect(scriptChunks('No. Not now. Later.')).toEqual(['No.', 'Not now. Later.']); // "No." is a sentence here
    const engines = new SpeechEngines(new SpeechSynth());
    try {
      const narration = new Narration(engines, 'Dr. Müller kommt heute. Gut.', engines.voice('de-DE-Katja'), new AbortController().signal);
      while (await narration.next());
      const [dr, name] = narration.timeline.words;
      expect([dr!.text, name!.text]).toEqual(['Dr.', 'Müller']);
      expect(name!.start - dr!.end).toBeLessThan(0.05); // "Doktor Müller" in one breath
      expect(dr!.end - dr!.start).toBeGreaterThan(0.3); // "Doktor", not "D R"'s pause alone
    } finally {
      await engines.close();
    }
  });

  it('cut a sentence too long to wait for (a transcript without full stops) between words, after a comma where one comes', () => {
    const words = 'and then we talked about the new features the team built for creators who want videos quickly'.split(' ');
    const transcript = Array.from({ length: 300 }, (_, i) => words[i % words.length]).join(' ');
    const chunks = scriptChunks(transcript);
    expect(chunks.join(' ')).toBe(transcript);
    expect(chunks[0]!.length).toBeLessThanOrEqual(200); // the first frame waits for this much only
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(400);
    expect(chunks.length).toBeGreaterThan(4);
    // With commas: cut after the last one in the second half of a piece.
    const clauses = Array.from({ length: 30 }, (_, i) => `clause number ${i} goes on for a few more words,`).join(' ');
    const withCommas = scriptChunks(`Short start. ${clauses} and the end.`);
    expect(withCommas.join(' ')).toBe(`Short start. ${clauses} and the end.`);
    for (const c of withCommas.slice(1, -1)) expect(c).toMatch(/,$/);
    // Chinese without spaces: cut after its own sentence marks (a 4,900-character script was one
    // 25-minute chunk), the parts following each other without a space.
    const zh = '今天天气很好，我们去公园散步吧。欢迎收看本期节目，我们来看看团队做了哪些新功能。'.repeat(40);
    const zhChunks = scriptChunks(zh);
    expect(zhChunks[0]).toBe('今天天气很好，我们去公园散步吧。');
    expect(zhChunks.join('')).toBe(zh);
    for (const c of zhChunks) expect(c.length).toBeLessThanOrEqual(400);
    expect(zhChunks.length).toBeGreaterThanOrEqual(5);
    expect(scriptChunks('「你好。」他说。')).toEqual(['「你好。」他说。'.slice(0, 5), '他说。']); // a closing quote stays with its mark
    // A single token longer than a chunk stays whole.
    const url = `https://example.com/${'x'.repeat(450)}`;
    expect(scriptChunks(`See ${url} now.`)).toEqual([`See`, url, 'now.']);
  });

  it('join the pieces of a cut sentence without the pause that follows a sentence', async () => {
    // A stand-in synthesiser (the Narration's joining is under test): one second per chunk.
    const rate = 1000;
    const speak = async (text: string) => ({
      samples: new Int16Array(rate), sampleRate: rate,
      timeline: { durationSeconds: 1, words: text.split(' ').map((w, i, all) => ({ text: w, start: i / all.length, end: (i + 1) / all.length })), phonemes: [] },
    });
    const long = Array.from({ length: 60 }, () => 'word').join(' ');
    const last = Array.from({ length: 30 }, () => 'more').join(' ');
    const script = `${long} ${long} ${long}. ${last}.`;
    const chunks = scriptChunks(script);
    const narration = new Narration({ speak }, script, engineVoice('en-US-Ava')!, new AbortController().signal);
    while (await narration.next());
    const sentencePause = (0.25 * 175) / engineVoice('en-US-Ava')!.espeak.rate;
    // One pause only: after the long sentence's last piece, none inside it.
    expect(narration.timeline.durationSeconds).toBeCloseTo(chunks.length + sentencePause, 2);
    expect(chunks.length).toBe(4); // three pieces of the long sentence, then the last one
  });
});
