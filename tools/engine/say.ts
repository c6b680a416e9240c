// Dev aid: npx tsx tools/engine/say.ts <voiceId> "text" → prints the timeline, writes /tmp/say.wav
// Any catalog voice (espeak-ng, SVOX Pico; a neural voice whose pack is in PS_PACKS_DIR).
import { writeFileSync } from 'node:fs';
import { SpeechSynth } from '../../server/engine/speech/speech.js';
import { SpeechEngines } from '../../server/engine/speech/speech-engines.js';
import { PiperSpeaker } from '../../server/engine/speech/speech-piper.js';
import { VoicePacks } from '../../server/engine/speech/voice-packs.js';
import { wavBytes } from '../../server/engine/encode/wav.js';

const espeak = new SpeechSynth();
const engines = new SpeechEngines(espeak, { piper: new PiperSpeaker(new VoicePacks(process.env.PS_PACKS_DIR ?? '/tmp/ps-voice-packs'), espeak) });
const voice = engines.voice(process.argv[2] ?? 'en-US-Ava');
const sp = await engines.speak(process.argv[3] ?? 'Hello there.', voice);
console.log(JSON.stringify(sp.timeline.words), sp.timeline.durationSeconds);
writeFileSync('/tmp/say.wav', wavBytes(sp.samples, sp.sampleRate));
await engines.close();
