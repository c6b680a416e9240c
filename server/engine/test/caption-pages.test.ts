// Caption pages as a viewer reads them, over whole scripts spoken by the real voice and cut into
// pages chunk by chunk as a render does: at most two lines, no word alone on a line, no line
// ending on an article or preposition, no abbreviation split ("z. B.", "9 a.m. EST"), dashes and
// quotes kept, every page on screen long enough to read; Chinese and Japanese without spaces
// the script does not have.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captionWords, CAPTION_MIN_SECONDS, joinWords, spokenScript } from '../../../shared/scene/index.js';
import { addCaptionPages, prepareScene, type Scene } from '../frames/scene-frames.js';
import { Narration } from '../speech/narration.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { SpeechSynth } from '../speech/speech.js';
import { toWebVtt } from '../encode/vtt.js';

const ENGLISH = `Good morning, and welcome to the quarterly product update. This quarter we shipped three things our customers asked for, and I want to walk you through each of them in a few minutes.

First, the new scheduling assistant. It books meetings across time zones, e.g. a call at 9 a.m. EST with a team in Berlin, and it checks every calendar before it suggests a slot. Dr. Rivera's team tested it with forty companies — from small agencies to a bank with twelve thousand employees — and the results were clear: people spent less time on email and more time on the work that matters.

Second, we rebuilt the reporting dashboard. You asked for "fewer clicks and faster numbers", and that is what you get. Reports now load in under a second, charts can be shared with a link, and every table can be exported to a spreadsheet. We also added a dark mode, which was the single most requested feature on our forum.

Third, security. All data is now encrypted at rest with keys that you control, and administrators can require two-step sign-in for every account in their organisation. We passed an independent audit in March, and the full report is available on request.

What comes next? In the coming months we will focus on the mobile apps, on better search across all of your documents, and on integrations with the tools you already use every day. We are also hiring, so if you know someone who would enjoy building software for teams around the world, please send them our way.

A quick word on support. Our help centre now answers in seven languages, and the average reply time has dropped to under two hours, even on weekends.

Thank you for your time and for your feedback. It shapes everything we build. See you next quarter.`;

const GERMAN = `Guten Morgen und herzlich willkommen zu unserem Quartalsbericht. In den letzten drei Monaten haben wir viel erreicht, und ich möchte Ihnen heute die wichtigsten Ergebnisse vorstellen.

Zuerst zum Umsatz: Er ist im Vergleich zum Vorjahr um zwölf Prozent gestiegen. Besonders gut liefen die neuen Märkte in Österreich und der Schweiz, z. B. der Großhandel in Wien, der seine Bestellungen fast verdoppelt hat. Unsere Kundinnen und Kunden schätzen vor allem den schnellen Versand – und das sehen wir auch in den Bewertungen.

Zweitens haben wir das Lager in Leipzig modernisiert, d. h. wir arbeiten jetzt mit einem neuen System für die Kommissionierung. Die Fehlerquote ist seitdem deutlich gesunken, und die Mitarbeiterinnen und Mitarbeiter sagen: „Die Arbeit ist leichter geworden.“ Das freut uns sehr.

Drittens ein Blick auf die Nachhaltigkeit. Seit dem 3. April fahren alle Lieferwagen in Berlin elektrisch, und bis zum Ende des Jahres sollen die übrigen Standorte folgen. Außerdem haben wir die Verpackungen umgestellt: Sie bestehen nun zu neunzig Prozent aus recyceltem Material.

Natürlich gab es auch Herausforderungen. Die Preise für Energie und Transport sind weiter gestiegen, und einige Lieferanten konnten nicht rechtzeitig liefern. Wir haben darauf reagiert, indem wir neue Verträge geschlossen und unsere Lagerbestände erhöht haben.

Für das nächste Quartal planen wir die Eröffnung eines Standorts in München sowie eine neue App für unsere Geschäftskunden. Wir sind zuversichtlich, dass wir unsere Ziele erreichen werden.

Ein Wort zum Team: Wir haben in diesem Quartal vierzehn neue Kolleginnen und Kollegen eingestellt, vor allem in der Logistik und im Kundenservice. Die Einarbeitung dauert jetzt nur noch zwei Wochen, weil wir die Schulungen neu aufgebaut haben. Auch die Zufriedenheit im Team ist gestiegen, wie unsere letzte Umfrage zeigt. Darauf sind wir stolz, und wir möchten diesen Weg gemeinsam weitergehen.

Vielen Dank für Ihre Aufmerksamkeit. Bei Fragen wenden Sie sich gern an unser Team.`;

/** Articles and prepositions a line must not end on (the noun belongs with them). */
const LEADING = new Set([
  'a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'by', 'from', 'into', 'about',
  'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einen', 'einem', 'einer', 'eines', 'im', 'am', 'vom', 'zum', 'zur', 'von', 'zu', 'mit', 'für', 'auf', 'bei', 'nach', 'aus', 'seit',
]);

/** Words that hold on to the next one unless a phrase starts there: a subject and its verb, a modal and its verb, a number or quantifier and its noun. */
const HOLDING = new Set([
  'i', 'we', 'they', 'he', 'she', "i'm", "we're", "i'll", "we'll", "they're", 'will', 'would', 'can', 'could', 'should', 'must', 'every',
  'each', 'both', 'several', 'next', 'two', 'three', 'four', 'seven', 'forty',
  'diesen', 'diese', 'jeden', 'alle', 'einige', 'zwei', 'drei', 'zwölf', 'vierzehn', 'neunzig',
]);

/** The first word of the line after line `l` of page `p` (null at the end). */
function wordAfter(pages: { lines: string[][] }[], p: number, l: number): string | null {
  return pages[p]!.lines[l + 1]?.[0] ?? pages[p + 1]?.lines[0]![0] ?? null;
}

let engines: SpeechEngines;
beforeAll(() => {
  engines = new SpeechEngines(new SpeechSynth());
});
afterAll(async () => {
  await engines.close();
});

/** The script spoken by the voice and captioned chunk by chunk, as a render does. */
async function captioned(text: string, voiceId: string, templateId: string, aspectRatio: '16:9' | '9:16'): Promise<Scene> {
  const scene = await prepareScene(templateId, { params: { aspectRatio, avatar: { scale: 0.6, x: 0.7, y: 0.6 } }, shortSide: 720 }, [], undefined, { presenter: false });
  const narration = new Narration(engines, spokenScript(text), engines.voice(voiceId), new AbortController().signal);
  for (let chunk = await narration.next(); chunk; chunk = await narration.next()) addCaptionPages(scene, chunk.words);
  return scene;
}

const cases = [
  { name: 'English', text: ENGLISH, voiceId: 'en-US-Ava', templateId: 'newsroom', aspectRatio: '16:9' as const },
  { name: 'English, vertical', text: ENGLISH, voiceId: 'en-US-Ava', templateId: 'product-launch', aspectRatio: '9:16' as const },
  { name: 'German', text: GERMAN, voiceId: 'de-DE-Katja', templateId: 'newsroom', aspectRatio: '16:9' as const },
  { name: 'German, chalkboard', text: GERMAN, voiceId: 'de-DE-Katja', templateId: 'classroom', aspectRatio: '16:9' as const },
];

describe.each(cases)('caption pages of a 300-word script: $name', ({ text, voiceId, templateId, aspectRatio }) => {
  let scene: Scene;
  let pages: { lines: string[][]; start: number; next: number | null }[];
  beforeAll(async () => {
    scene = await captioned(text, voiceId, templateId, aspectRatio);
    pages = scene.pages.map((p, i) => ({ lines: p.lines.map((l) => l.map((w) => scene.words[w]!.text)), start: p.start, next: scene.pages[i + 1]?.start ?? null }));
  }, 60_000);

  it('keeps every word, dash and quote of the script, in order', () => {
    expect(text.split(/\s+/u).length).toBeGreaterThanOrEqual(290);
    const shown = pages.flatMap((p) => p.lines.flat()).join(' ');
    expect(shown).toBe(text.split(/\s+/u).join(' '));
    for (const mark of ['—', '–', '"', '„', '“']) expect(shown.split(mark).length).toBe(text.split(mark).length);
  });

  it('shows at most two lines, never one word alone on a line', () => {
    for (const p of pages) {
      expect(p.lines.length).toBeLessThanOrEqual(2);
      for (const l of p.lines) expect(l.length, JSON.stringify(p.lines)).toBeGreaterThanOrEqual(2);
    }
  });

  it('breaks lines at phrases: never after an article or preposition, never inside an abbreviation', () => {
    for (const p of pages) {
      for (const l of p.lines) {
        const last = l.at(-1)!;
        expect(LEADING.has(last.toLowerCase()), JSON.stringify(p.lines)).toBe(false);
        // "z. B.", "d. h.", "e.g.", "a.m. EST", "Dr. Rivera's", "3. April": the stop ends no line but a sentence's.
        if (/\.$/.test(last) && l !== p.lines.at(-1)) throw new Error(`a line ends inside a sentence on "${last}": ${JSON.stringify(p.lines)}`);
        expect(/^(?:B\.|h\.|EST|Rivera's|April)$/.test(l[0]!), JSON.stringify(p.lines)).toBe(false);
      }
      const lastWord = p.lines.at(-1)!.at(-1)!;
      expect(/^(?:z\.|d\.|a\.m\.|Dr\.|e\.g\.|3\.)$/.test(lastWord), JSON.stringify(p.lines)).toBe(false);
    }
  });

  it('keeps a subject with its verb, a number or a quantifier with its noun, unless a phrase starts after it', () => {
    pages.forEach((p, i) =>
      p.lines.forEach((l, k) => {
        const next = wordAfter(pages, i, k);
        if (next !== null && HOLDING.has(l.at(-1)!.toLowerCase())) expect(LEADING.has(next.toLowerCase()), `${l.join(' ')} | ${next}`).toBe(true);
      }),
    );
  });

  it('keeps every page on screen long enough to read', () => {
    for (const p of pages) if (p.next !== null) expect(p.next - p.start, JSON.stringify(p.lines)).toBeGreaterThanOrEqual(CAPTION_MIN_SECONDS - 1e-9);
  });
});

describe('Chinese and Japanese captions', () => {
  it('put no space between their characters and digits, nor inside "USB-C"', () => {
    for (const text of ['我们在2026年3月发布了USB-C接口的新版本。', '2026年3月に、USB-Cポートを搭載した新モデルを発売します。']) {
      const words = captionWords([{ text, start: 0, end: 3 }]);
      expect(words.length).toBeGreaterThan(3);
      expect(joinWords(words.map((w) => w.text))).toBe(text);
      expect(words.some((w) => /USB-C/.test(w.text))).toBe(true);
      const vtt = toWebVtt([{ lines: [words.map((_, i) => i)], start: 0, end: 3 }], words, 3);
      expect(vtt.replace(/<[^>]+>/g, '')).toContain(text);
    }
  });
});
