// `npm run bench -- render [--aspect 16:9,9:16] [--seconds 60] [--naive]`
// A 60-second narration rendered at 720p by the real engine; reports wall time, real-time
// factor, peak memory (engine process + ffmpeg) and the ratio to the encoder's floor measured
// in the same run: ffmpeg alone encoding the very same frames (the rendered video decoded once
// to raw yuv420p, then encoded from raw with the same x264/AAC settings and audio).
// --naive adds the full-frame pipeline (every whole frame drawn and piped) as a second baseline.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { outputSize, type AspectRatio } from '../shared/contract/index.js';
import { createEngine } from '../server/engine/index.js';
import { DEFAULT_ENCODE, type EncodeSettings } from '../server/engine/render.js';
import { ffmpegPath } from '../server/engine/ffmpeg.js';
import { SpeechSynth } from '../server/engine/speech.js';
import { espeakVoice } from '../server/engine/voices.js';

const run = promisify(execFile);

const SENTENCES = [
  'Welcome to this week\'s product update, where we walk through everything that changed and why it matters to you.',
  'First, rendering is now much faster, so a one minute video is ready in a few seconds on an ordinary laptop.',
  'Second, captions follow the voice word by word, and they always stay inside the safe area of the frame.',
  'Third, you can drag your presenter anywhere on the canvas, and the video puts them on exactly the same pixels.',
  'Our team tested every template in every aspect ratio, from wide screens to tall phone videos.',
  'If you write scripts for lessons, launches or news, you will find a template that fits your style.',
  'Finally, everything runs on your own machine, so your drafts stay private until you decide to share them.',
  'Thank you for watching, and we cannot wait to see what you create next.',
];

async function narration(seconds: number): Promise<{ text: string; duration: number }> {
  const synth = new SpeechSynth();
  const voice = espeakVoice('en-US-Ava')!;
  let text = '';
  let duration = 0;
  for (let i = 0; duration < seconds; i++) {
    const next = (text ? `${text} ` : '') + SENTENCES[i % SENTENCES.length];
    const sp = await synth.synthesize(next, voice);
    if (sp.timeline.durationSeconds > seconds + 4 && text) break;
    text = next;
    duration = sp.timeline.durationSeconds;
  }
  await synth.close();
  return { text, duration };
}

/** Sums the resident memory of this process and its children every 50 ms; returns the peak in MB. */
function memorySampler(includeSelf = true): { stop(): number } {
  let peak = 0;
  let busy = false;
  const rssKb = (pid: number) => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) : 0;
    } catch {
      return 0;
    }
  };
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    let kids: number[];
    try {
      const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(process.pid)]);
      kids = stdout.split('\n').map(Number).filter(Boolean);
    } catch {
      kids = [];
    }
    const total = (includeSelf ? rssKb(process.pid) : 0) + kids.reduce((a, p) => a + rssKb(p), 0);
    peak = Math.max(peak, total / 1024);
    busy = false;
  }, 50);
  return { stop: () => (clearInterval(timer), peak) };
}

async function timeFfmpeg(args: string[]): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const p = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exit ${code}`))));
  });
  return (performance.now() - t0) / 1000;
}

function x264Args(e: EncodeSettings): string[] {
  return ['-c:v', 'libx264', '-preset', e.preset, '-crf', String(e.crf), ...(e.x264Params ? ['-x264-params', e.x264Params] : [])];
}

export async function main(args: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const aspects = (opt('aspect') ?? '16:9,9:16').split(',') as AspectRatio[];
  const seconds = Number(opt('seconds') ?? 60);
  const naive = args.includes('--naive');
  const root = mkdtempSync(join(tmpdir(), 'ps-bench-render-'));
  const bin = ffmpegPath();
  console.log(`ffmpeg: ${bin} (${execFileSync(bin, ['-version']).toString().split('\n')[0]})`);
  const { text, duration } = await narration(seconds);
  console.log(`narration: ${text.split(/\s+/).length} words, ${duration.toFixed(1)} s of speech; x264 ${JSON.stringify(DEFAULT_ENCODE)}`);

  const rows: string[][] = [['aspect', 'pipeline', 'wall s', 'x real time', 'peak MB', 'vs floor']];
  for (const aspect of aspects) {
    const { width, height } = outputSize(aspect, 720);
    const variants: [string, EncodeSettings][] = [['regions (engine)', DEFAULT_ENCODE]];
    if (naive) variants.push(['full frames', { ...DEFAULT_ENCODE, fullFrames: true }]);
    let floor = 0;
    for (const [label, encode] of variants) {
      const engine = (await createEngine({ cacheDir: join(root, 'cache'), encode }))!;
      const workDir = mkdtempSync(join(root, 'work-'));
      const mem = memorySampler();
      const t0 = performance.now();
      const r = await engine.render({
        jobId: 'bench', text, templateId: aspect === '9:16' ? 'social-short' : 'newsroom', voiceId: 'en-US-Ava', shortSide: 720,
        params: { aspectRatio: aspect, avatar: aspect === '9:16' ? { scale: 0.55, x: 0.5, y: 0.45 } : { scale: 0.6, x: 0.72, y: 0.58 } },
        workDir, signal: new AbortController().signal, onProgress: () => undefined,
      });
      const wall = (performance.now() - t0) / 1000;
      const peak = mem.stop();
      await engine.close?.();
      const video = join(workDir, 'video.mp4');
      if (!floor) {
        // The floor: decode once (untimed), then time ffmpeg encoding the same frames and audio.
        const raw = join(root, 'frames.yuv');
        const wav = join(root, 'audio.wav');
        execFileSync(bin, ['-v', 'error', '-y', '-i', video, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', raw]);
        execFileSync(bin, ['-v', 'error', '-y', '-i', video, '-vn', '-c:a', 'pcm_s16le', wav]);
        const fmem = memorySampler(false);
        floor = await timeFfmpeg([
          '-y', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-framerate', '30', '-i', raw, '-i', wav,
          ...x264Args(DEFAULT_ENCODE), '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-movflags', '+faststart',
          '-f', 'mp4', join(root, 'floor.mp4'),
        ]);
        const fpeak = fmem.stop();
        rows.push([aspect, 'floor: ffmpeg alone, raw → mp4', floor.toFixed(2), (r.durationSeconds / floor).toFixed(1), fpeak.toFixed(0), '1.00']);
        rmSync(raw, { force: true });
      }
      rows.push([aspect, label, wall.toFixed(2), (r.durationSeconds / wall).toFixed(1), peak.toFixed(0), (wall / floor).toFixed(2)]);
      const st = r.stats;
      console.log(
        `  ${aspect} ${label}: ${width}x${height}, ${r.durationSeconds.toFixed(1)} s video, ${(statSync(video).size / 1e6).toFixed(1)} MB` +
          (st ? `; drawing ${st.drawSeconds.toFixed(2)} s, waiting on ffmpeg ${st.waitSeconds.toFixed(2)} s, ${(st.sentPixelsPerFrame / (width * height) * 100).toFixed(0)} % of a frame sent per frame` : ''),
      );
      rmSync(workDir, { recursive: true, force: true });
    }
  }
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i]!)).join('  '));
  console.log('goals on 2 cores: >= 10x real time, <= 1.3x the floor, peak < 400 MB');
  rmSync(root, { recursive: true, force: true });
}
