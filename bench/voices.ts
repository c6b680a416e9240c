// `npm run bench -- voices [--runs 3] [--voices id,…]`: each offline voice's synthesis speed
// against eSpeak NG's, in one run. A voice speaks the same paragraphs as the eSpeak voice of its
// language (its timing reference, en-US-Ava for English), warm, through the engine's own path
// (speech-engines.ts: its engine and espeak's reference in parallel, then the alignment; for
// Japanese kanji, kuromoji's readings). Reports the audio made per second of wall time and the
// ratio of each voice's time to eSpeak's for the same text (median over runs, each against the
// eSpeak run next to it: the machine's speed drifts). Default voices: the Flite ones (en-US-Richard,
// en-GB-Alan, en-US-Sally), SVOX Pico's en-US-Lisa for comparison, the Arabic and Japanese ones.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { SpeechSynth } from '../server/engine/speech/speech.js';
import { SpeechEngines } from '../server/engine/speech/speech-engines.js';
import { catalogVoices, type EngineVoice } from '../server/engine/speech/voices.js';

export const USAGE = 'npm run bench -- voices [--runs 3] [--voices en-US-Richard,en-GB-Alan,…]';
export const OPTIONS = {
  runs: { type: 'string', default: '3' },
  voices: { type: 'string', default: 'en-US-Richard,en-GB-Alan,en-US-Sally,en-US-Lisa,ar-SA-Hamed,ja-JP-Nanami' },
} satisfies ParseArgsOptionsConfig;

const TEXTS: Record<string, string[]> = {
  en: [
    'Welcome to this week\'s product update, where we walk through everything that changed and why it matters to you.',
    'First, rendering is now much faster, so a one minute video is ready in a few seconds on an ordinary laptop.',
    'Thank you for watching, and we cannot wait to see what you create next.',
  ],
  ar: ['مرحبا بكم في تحديث هذا الأسبوع، حيث نستعرض كل ما تغير ولماذا يهمكم.', 'شكرا لكم على المشاهدة، ونتطلع إلى رؤية ما ستصنعونه.'],
  ja: ['今週の製品アップデートへようこそ。変わったことと、その理由をご紹介します。', 'ご覧いただき、ありがとうございました。次回もお楽しみに。'],
};

/** Wall seconds and audio seconds for the voice to speak every text once. */
async function speakAll(engines: SpeechEngines, voice: EngineVoice, texts: string[]): Promise<{ wall: number; audio: number }> {
  const t0 = performance.now();
  let audio = 0;
  for (const t of texts) {
    const sp = await engines.speak(t, voice);
    audio += sp.timeline.durationSeconds;
  }
  return { wall: (performance.now() - t0) / 1000, audio };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true });
  const runs = Math.max(1, Number(values.runs));
  const catalog = catalogVoices();
  const voices = values.voices.split(',').map((id) => {
    const v = catalog.find((x) => x.id === id);
    if (!v) throw new Error(`unknown voice ${id}`);
    if (v.piper || v.kokoro) throw new Error(`${id} needs a download: this bench measures the voices that ship`);
    return v;
  });
  const espeak = new SpeechSynth(Infinity);
  const engines = new SpeechEngines(espeak);
  /** The eSpeak voice a voice is compared with: its language's (the first in the catalog). */
  const baselineOf = (v: EngineVoice) => catalog.find((x) => x.engine === 'espeak' && x.locale.split('-')[0] === v.locale.split('-')[0])!;
  const textsOf = (v: EngineVoice) => TEXTS[v.locale.split('-')[0]!] ?? TEXTS.en!;
  try {
    // Warm: each worker started, each engine's hot code compiled, kuromoji's dictionary loaded.
    for (const v of voices) {
      await speakAll(engines, v, textsOf(v).slice(0, 1));
      await speakAll(engines, baselineOf(v), textsOf(v).slice(0, 1));
    }
    const rows: string[][] = [['voice', 'engine', 'audio s', 'best wall s', 'audio s / wall s', 'vs eSpeak (median)']];
    for (const v of voices) {
      const base = baselineOf(v);
      const ratios: number[] = [];
      let best = Infinity;
      let audio = 0;
      for (let r = 0; r < runs; r++) {
        const e = await speakAll(engines, base, textsOf(v));
        const x = await speakAll(engines, v, textsOf(v));
        ratios.push(x.wall / e.wall);
        best = Math.min(best, x.wall);
        audio = x.audio;
      }
      rows.push([v.id, v.engine, audio.toFixed(1), best.toFixed(3), (audio / best).toFixed(1), v.id === base.id ? '1.00 (baseline)' : `${median(ratios).toFixed(2)}× ${base.id}`]);
    }
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  } finally {
    await engines.close();
  }
}
