// Dev aid: npx tsx tools/engine/render-one.ts <templateId> <aspect> <outDir> [voiceId] [text]
// (MUSIC=<audio file> [MUSIC_VOLUME=0.25] mixes it under the narration.)
import { mkdirSync } from 'node:fs';
import { createEngine } from '../../server/engine/index.js';
import { AspectRatio } from '../../shared/contract/index.js';
import { fillParams } from '../../shared/scene/index.js';

const [templateId = 'newsroom', aspect = '16:9', outDir = '/tmp/render', voiceId = 'en-US-Ava', text] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
const engine = (await createEngine({ cacheDir: '/tmp/engine-cache' }))!;
const t0 = performance.now();
const r = await engine.render({
  jobId: 'dev', templateId, voiceId, shortSide: 720, workDir: outDir, signal: new AbortController().signal,
  text: text ?? 'Good evening, and welcome to the news. Tonight, we look at how small teams make big videos with a laptop.',
  params: fillParams(templateId, { aspectRatio: AspectRatio.parse(aspect) }),
  onProgress: () => undefined,
  ...(process.env.MUSIC ? { music: { assetId: 'dev', path: process.env.MUSIC, durationSeconds: null, volume: Number(process.env.MUSIC_VOLUME ?? 0.25), duck: true } } : {}),
});
console.log(r, `${((performance.now() - t0) / 1000).toFixed(2)} s`);
await engine.close?.();
