// Dev aid: npx tsx server/engine/tools/say.ts <voiceId> "text" → prints the timeline, writes /tmp/say.wav
// Any catalog voice (espeak-ng, SVOX Pico; a neural voice whose pack is in PS_PACKS_DIR).
import { writeFileSync } from 'node:fs';
import { SpeechSynth } from '../speech.js';
import { SpeechEngines } from '../speech-engines.js';
import { PiperSpeaker } from '../speech-piper.js';
import { VoicePacks } from '../voice-packs.js';
import { wavBytes } from '../wav.js';

const espeak = new SpeechSynth();
const engines = new SpeechEngines(espeak, { piper: new PiperSpeaker(new VoicePacks(process.env.PS_PACKS_DIR ?? '/tmp/ps-voice-packs'), espeak) });
const voice = engines.voice(process.argv[2] ?? 'en-US-Ava');
const sp = await engines.speak(process.argv[3] ?? 'Hello there.', voice);
console.log(JSON.stringify(sp.timeline.words), sp.timeline.durationSeconds);
writeFileSync('/tmp/say.wav', wavBytes(sp.samples, sp.sampleRate));
await engines.close();
