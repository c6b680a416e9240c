// Dev aid: npx tsx server/engine/tools/say.ts <voiceId> "text" → prints the timeline, writes /tmp/say.wav
import { writeFileSync } from 'node:fs';
import { SpeechSynth } from '../speech.js';
import { espeakVoice } from '../voices.js';
import { wavBytes } from '../wav.js';

const s = new SpeechSynth();
const sp = await s.synthesize(process.argv[3] ?? 'Hello there.', espeakVoice(process.argv[2] ?? 'en-US-Ava')!);
console.log(JSON.stringify(sp.timeline.words), sp.timeline.durationSeconds);
writeFileSync('/tmp/say.wav', wavBytes(sp.samples, sp.sampleRate));
await s.close();
