import { mkdirSync } from 'node:fs';
import { createEngine } from '../../server/engine/index.js';
import { fillParams } from '../../shared/scene/index.js';
const out = process.argv[2]!; mkdirSync(out, { recursive: true });
const engine = (await createEngine({ cacheDir: '/tmp/engine-cache' }))!;
const params = fillParams('social-short', { aspectRatio: '9:16' });
const sc = (text: string, minSeconds?: number) => ({ text, templateId: 'social-short', voiceId: 'en-US-Ava', presenterId: 'nora', avatar: params.avatar, background: null, transition: 'cut' as const, media: null, ...(minSeconds ? { minSeconds } : {}) });
const t0 = performance.now();
const r = await engine.render({ jobId: 'dev', templateId: 'social-short', voiceId: 'en-US-Ava', shortSide: 720, workDir: out, signal: new AbortController().signal, text: 'x', params, onProgress: () => undefined,
  scenes: [sc('Welcome to the show. The music plays under my voice.', 7), sc('And now it is quiet again, under my words.')],
  ...(process.env.MUSIC ? { music: { assetId: 'dev', path: process.env.MUSIC, durationSeconds: 6, volume: 0.25, duck: true } } : {}) });
console.log(r.durationSeconds, ((performance.now() - t0) / 1000).toFixed(2));
await engine.close?.();
