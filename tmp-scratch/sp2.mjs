import createModule from '@echogarden/espeak-ng-emscripten';
import { readFileSync } from 'node:fs';
const text = readFileSync('/tmp/narr.txt', 'utf8').trim();
let t0 = performance.now();
const m = await createModule();
console.log('createModule', (performance.now() - t0).toFixed(0));
t0 = performance.now();
const w = new m.eSpeakNGWorker();
console.log('new worker', (performance.now() - t0).toFixed(0));
for (let i = 0; i < 3; i++) {
t0 = performance.now();
w.set_voice('en-us+f3'); w.set_rate(170); w.set_pitch(60);
let n = 0;
w.synthesize(i === 0 ? 'Hi.' : text, (audio, evs) => { if (audio) n += audio.length; return false; });
console.log('synth', i, (performance.now() - t0).toFixed(0), n / 22050);
}
console.log(process.cpuUsage());
