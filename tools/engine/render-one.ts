// Dev aid: npx tsx tools/engine/render-one.ts <templateId> <aspect> <outDir> [voiceId] [text]
// (MUSIC=<audio file> [MUSIC_VOLUME=0.25] mixes it under the narration.)
// (RESOLUTION=1080p renders at 1080p; CAPTIONS=file|none leaves the captions out of the frames.)
import { mkdirSync } from 'node:fs';
import { createEngine } from '../../server/engine/index.js';
import { AspectRatio, CaptionMode, Resolution, SHORT_SIDES } from '../../shared/contract/index.js';
import { fillParams } from '../../shared/scene/index.js';

const [templateId = 'newsroom', aspect = '16:9', outDir = '/tmp/render', voiceId = 'en-US-Ava', text] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
const resolution = Resolution.parse(process.env.RESOLUTION ?? '720p');
const captions = CaptionMode.parse(process.env.CAPTIONS ?? 'burned');
const engine = (await createEngine({ cacheDir: '/tmp/engine-cache' }))!;
const t0 = performance.now();
const r = await engine.render({
  jobId: 'dev', templateId, voiceId, shortSide: SHORT_SIDES[resolution], workDir: outDir, signal: new AbortController().signal,
  text: text ?? 'Good evening, and welcome to the news. Tonight, we look at how small teams make big videos with a laptop.',
  params: fillParams(templateId, { aspectRatio: AspectRatio.parse(aspect), resolution, captions }),
  onProgress: () => undefined,
  ...(process.env.MUSIC ? { music: { assetId: 'dev', path: process.env.MUSIC, durationSeconds: null, volume: Number(process.env.MUSIC_VOLUME ?? 0.25), duck: true } } : {}),
});
console.log(r, `${((performance.now() - t0) / 1000).toFixed(2)} s`);
await engine.close?.();
