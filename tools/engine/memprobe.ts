// Dev aid: peak memory of one render. npx tsx tools/engine/memprobe.ts [aspect] [repeat]
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AspectRatio } from '../../shared/contract/index.js';
import { fillParams } from '../../shared/scene/index.js';
import { createEngine } from '../../server/engine/index.js';

const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const aspect = (process.argv[2] ?? '9:16') as AspectRatio;
const text = 'Welcome to this week, where we walk through everything that changed and why it matters to you. '.repeat(Number(process.argv[3] ?? 8));
const engine = (await createEngine({ cacheDir: '/tmp/memcache' }))!;
const before = hwm();
const templateId = aspect === '9:16' ? 'social-short' : 'newsroom';
const r = await engine.render({
  jobId: 'm', text, templateId, voiceId: 'en-US-Ava', shortSide: 720,
  params: fillParams(templateId, { aspectRatio: aspect }),
  workDir: mkdtempSync('/tmp/mem-'), signal: new AbortController().signal, onProgress: () => undefined,
});
console.log(`${aspect}: ${r.durationSeconds.toFixed(1)} s video; engine process peak ${hwm().toFixed(0)} MB (before render ${before.toFixed(0)} MB)`, r.stats);
await engine.close?.();
