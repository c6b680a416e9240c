// Measures each voice's pace and writes it into resources/voices.json (`pace`), where the app's
// length estimate reads it (shared/language/pace.ts). Every voice that ships (espeak-ng, SVOX
// Pico, Flite; a neural voice when its pack is in PS_PACKS_DIR) speaks sample paragraphs of its
// language as a render narrates them (narration.ts: chunks and the pauses between them); the
// spoken units per second and the pause per sentence are fitted to the narrations' lengths.
//   npx tsx tools/engine/voice-pace.ts [voiceId…]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sentenceEnds, spokenUnits, type Pace } from '../../shared/language/pace.js';
import { Narration } from '../../server/engine/speech/narration.js';
import { SpeechSynth } from '../../server/engine/speech/speech.js';
import { SpeechEngines } from '../../server/engine/speech/speech-engines.js';
import { PiperSpeaker } from '../../server/engine/speech/speech-piper.js';
import { KokoroSpeaker } from '../../server/engine/speech/speech-kokoro.js';
import { VoicePacks } from '../../server/engine/speech/voice-packs.js';
import { catalogVoices, packOf, type EngineVoice } from '../../server/engine/speech/voices.js';
import { PACE_SAMPLES } from './pace-samples.js';

/** A narration's length in seconds, as a render of the text in the voice has it. */
export async function narrationSeconds(engines: SpeechEngines, text: string, voice: EngineVoice): Promise<number> {
  const n = new Narration(engines, text, voice, new AbortController().signal);
  while (await n.next());
  return n.timeline.durationSeconds;
}

/** Least squares of seconds = units / rate + sentences × pause over the samples. */
export function fitPace(samples: { units: number; sentences: number; seconds: number }[]): Pace {
  let [uu, us, ss, ud, sd] = [0, 0, 0, 0, 0];
  for (const x of samples) {
    uu += x.units * x.units;
    us += x.units * x.sentences;
    ss += x.sentences * x.sentences;
    ud += x.units * x.seconds;
    sd += x.sentences * x.seconds;
  }
  const det = uu * ss - us * us;
  let a = det ? (ud * ss - sd * us) / det : ud / uu;
  let b = det ? (uu * sd - us * ud) / det : 0;
  if (b < 0) [a, b] = [ud / uu, 0]; // no pause at all rather than a negative one
  return { unitsPerSecond: Math.round((1 / a) * 1000) / 1000, sentencePauseSeconds: Math.round(b * 1000) / 1000 };
}

/** JSON on one line in the file's style: a space after every colon and comma. */
const oneLine = (x: unknown) => JSON.stringify(x, null, 1).replace(/\n\s*/g, ' ').replace(/([{[]) /g, '$1').replace(/ ([}\]])/g, '$1');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = new Set(process.argv.slice(2));
  const espeak = new SpeechSynth();
  const packs = new VoicePacks(process.env.PS_PACKS_DIR ?? '/tmp/ps-voice-packs');
  const engines = new SpeechEngines(espeak, { piper: new PiperSpeaker(packs, espeak), kokoro: new KokoroSpeaker(packs, espeak) });
  const paces = new Map<string, Pace>();
  try {
    for (const voice of catalogVoices()) {
      if (only.size && !only.has(voice.id)) continue;
      if (packOf(voice) && (await packs.status(voice)).state !== 'installed') continue; // measured once downloaded
      const language = voice.locale.split('-')[0]!;
      const texts = PACE_SAMPLES[language];
      if (!texts) throw new Error(`no pace samples for ${language} (${voice.id})`);
      const samples = [];
      for (const text of texts) samples.push({ units: spokenUnits(text, language), sentences: sentenceEnds(text), seconds: await narrationSeconds(engines, text, voice) });
      const pace = fitPace(samples);
      paces.set(voice.id, pace);
      console.log(voice.id.padEnd(18), `${pace.unitsPerSecond} units/s`, `${pace.sentencePauseSeconds} s/sentence`);
    }
  } finally {
    await engines.close();
  }
  // One voice per line, as the file is written by hand: each measured line gets its pace replaced.
  const file = fileURLToPath(new URL('../../resources/voices.json', import.meta.url));
  const lines = readFileSync(file, 'utf8').split('\n').map((line) => {
    const id = /^\s*\{"id": "([^"]+)"/.exec(line)?.[1];
    const pace = id && paces.get(id);
    if (!pace) return line;
    const entry = JSON.parse(line.trim().replace(/,$/, '')) as Record<string, unknown>;
    const { pace: _old, ...rest } = entry;
    return `    ${oneLine({ ...rest, pace })}${line.trim().endsWith(',') ? ',' : ''}`;
  });
  writeFileSync(file, lines.join('\n'));
}
