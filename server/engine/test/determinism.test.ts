// A render is a function of its job: the same narration gives the same frames and sound, whatever
// the engine's warm speech workers said before it (espeak carries state between utterances) and
// however the machine's load times the chunks. Checked through the real engine and ffmpeg's
// per-frame checksums of the decoded video.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fillParams } from '../../../shared/scene/index.js';
import { decoderPath } from '../../media-binaries.js';
import { createEngine, type RenderEngine } from '../index.js';

let root: string;
let engine: RenderEngine;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'ps-determinism-'));
  engine = (await createEngine({ cacheDir: join(root, 'cache') }))!;
});
afterAll(async () => {
  await engine?.close?.();
  rmSync(root, { recursive: true, force: true });
});

let n = 0;
/** Renders `text` as the brand test's presenter job; returns each decoded frame's and the sound's checksums. */
async function render(text: string): Promise<{ frames: string[]; audio: string }> {
  const workDir = join(root, `job-${n++}`);
  mkdirSync(workDir);
  await engine.render({
    jobId: `job_${n}`, templateId: 'podcast-studio', voiceId: 'en-GB-Ryan', shortSide: 720, workDir, text,
    params: fillParams('podcast-studio', { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.72, y: 0.58 } }),
    signal: new AbortController().signal, onProgress: () => undefined,
  });
  const md5 = (map: string, format: string) =>
    execFileSync(decoderPath(), ['-v', 'error', '-i', join(workDir, 'video.mp4'), '-map', map, '-f', format, '-'], { maxBuffer: 16 << 20 }).toString();
  const frames = md5('0:v', 'framemd5').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(',').pop()!.trim());
  return { frames, audio: md5('0:a', 'md5').trim() };
}

it('renders one narration to the same frames and sound, whatever was spoken before it', async () => {
  const text = 'Brand colours, our logo and our font.';
  const first = await render(text);
  await render('Something else, said between the two.'); // the warm speech worker says other things
  const again = await render(text);
  expect(first.frames.length).toBeGreaterThan(60);
  expect(again.audio).toBe(first.audio);
  // Every frame, the presenter's mouth and head included.
  expect(again.frames.map((f, i) => (f === first.frames[i] ? '' : String(i))).filter(Boolean)).toEqual([]);
}, 120_000);
