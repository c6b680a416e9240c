// `npm run bench -- render [--aspect 16:9,9:16] [--seconds 60] [--naive]`
// A 60-second narration rendered at 720p by the real engine; reports wall time, real-time
// factor, peak memory (engine process + ffmpeg) and the ratio to the encoder's floor measured
// in the same run: ffmpeg alone encoding the very same frames (the rendered video decoded once
// to raw yuv420p, then encoded from raw with the same x264/AAC settings and audio).
// --naive adds the full-frame pipeline (every whole frame drawn and piped) as a second baseline.
// The engine is measured as a running server has it, its speech synthesiser loaded and warm;
// --cold adds a render by an engine just created (espeak loaded and compiled during the render).
// Each measurement runs --runs times (default 3), each engine render followed by a floor run;
// the table shows the best run of each (on a shared machine the fastest run is the one least
// disturbed by other work), and the ratios to the floor are the median over runs of each
// engine render against the floor run right after it: the machine's speed drifts over minutes,
// and a ratio of two best runs taken minutes apart would mostly measure that drift. CPU
// seconds (this process incl. its threads + ffmpeg, via GNU time) are reported next to wall.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { outputSize, type AspectRatio } from '../shared/contract/index.js';
import { fillParams } from '../shared/scene/catalog.js';
import { createEngine, type RenderResult } from '../server/engine/index.js';
import { DEFAULT_ENCODE, type EncodeSettings } from '../server/engine/render.js';
import { ffmpegPath } from '../server/engine/ffmpeg.js';
import { SpeechSynth } from '../server/engine/speech.js';
import { espeakVoice } from '../server/engine/voices.js';

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

/** Peak resident memory of this process since the last reset (Linux: VmHWM, reset via clear_refs). */
function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // not Linux or not permitted: the peak then covers the whole process lifetime
  }
}
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

/**
 * ffmpeg runs through GNU time, which appends "user sys maxRSSkB" per run to a file: the
 * encoder's CPU seconds and peak memory, measured by the kernel.
 */
function timedFfmpeg(root: string, real: string): { bin: string; take(): { cpu: number; peakMb: number } } {
  const log = join(root, 'ffmpeg-time.log');
  const bin = join(root, 'ffmpeg-timed.sh');
  writeFileSync(bin, `#!/bin/sh\nexec /usr/bin/time -a -o '${log}' -f '%U %S %M' '${real}' "$@"\n`);
  chmodSync(bin, 0o755);
  return {
    bin,
    take() {
      const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter((l) => /^[\d.]+ [\d.]+ \d+$/.test(l)) : [];
      rmSync(log, { force: true });
      let cpu = 0;
      let peak = 0;
      for (const l of lines) {
        const [u, sy, m] = l.split(' ').map(Number) as [number, number, number];
        cpu += u + sy;
        peak = Math.max(peak, m / 1024);
      }
      return { cpu, peakMb: peak };
    },
  };
}

function x264Args(e: EncodeSettings): string[] {
  return ['-c:v', 'libx264', '-preset', e.preset, '-crf', String(e.crf), ...(e.x264Params ? ['-x264-params', e.x264Params] : [])];
}

interface Run {
  wall: number;
  cpu: number;
  /** Of which ffmpeg's CPU seconds, and the engine process's peak alone. */
  ffmpegCpu?: number;
  selfPeakMb?: number;
  peakMb: number;
  stats?: RenderResult['stats'];
  duration: number;
  bytes: number;
}

interface ChildJob {
  text: string;
  aspect: AspectRatio;
  encode: EncodeSettings;
  workDir: string;
  cacheDir: string;
  /** Speech synthesiser loaded during the render instead of before it. */
  cold?: boolean;
}

/**
 * One engine render in this (fresh) process: prints wall time, this process's CPU seconds and
 * peak memory (VmHWM) as JSON. A fresh process per render keeps earlier runs' memory out of it.
 */
async function child(job: ChildJob): Promise<void> {
  const engine = (await createEngine({ cacheDir: job.cacheDir, encode: job.encode, warmSpeech: !job.cold }))!;
  await engine.warmUp?.();
  resetPeak();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const templateId = job.aspect === '9:16' ? 'social-short' : 'newsroom';
  const r = await engine.render({
    jobId: 'bench', text: job.text, templateId, voiceId: 'en-US-Ava', shortSide: 720,
    params: fillParams(templateId, { aspectRatio: job.aspect }),
    workDir: job.workDir, signal: new AbortController().signal, onProgress: () => undefined,
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await engine.close?.();
  console.log(`RESULT ${JSON.stringify({ wall, cpu: (cpu.user + cpu.system) / 1e6, peakMb: peakMb(), result: r })}`);
}

function runChild(job: ChildJob): { wall: number; cpu: number; peakMb: number; result: RenderResult } {
  const out = execFileSync(process.execPath, [...process.execArgv, join(import.meta.dirname, 'index.ts'), 'render', '--child', JSON.stringify(job)], {
    env: process.env, maxBuffer: 1 << 24,
  }).toString();
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`bench child printed no result:\n${out}`);
  return JSON.parse(line.slice(7)) as { wall: number; cpu: number; peakMb: number; result: RenderResult };
}

export const USAGE = 'npm run bench -- render [--aspect 16:9,9:16] [--seconds 60] [--runs 3] [--naive] [--cold]';
export const OPTIONS = {
  child: { type: 'string' },
  aspect: { type: 'string', default: '16:9,9:16' },
  seconds: { type: 'string', default: '60' },
  runs: { type: 'string', default: '3' },
  naive: { type: 'boolean', default: false },
  cold: { type: 'boolean', default: false },
} as const satisfies ParseArgsOptionsConfig;

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: OPTIONS });
  if (values.child) return child(JSON.parse(values.child) as ChildJob);
  const aspects = values.aspect.split(',') as AspectRatio[];
  const seconds = Number(values.seconds);
  const runs = Math.max(1, Number(values.runs));
  const { naive, cold } = values;
  const root = mkdtempSync(join(tmpdir(), 'ps-bench-render-'));
  const real = ffmpegPath();
  const ff = timedFfmpeg(root, real);
  const savedPath = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = ff.bin;
  console.log(`ffmpeg: ${real} (${execFileSync(real, ['-version']).toString().split('\n')[0]})`);
  console.log(`cores: ${availableParallelism()}, load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const { text, duration } = await narration(seconds);
  console.log(`narration: ${text.split(/\s+/).length} words, ${duration.toFixed(1)} s of speech; x264 ${JSON.stringify(DEFAULT_ENCODE)}; best of ${runs} runs, ratios: median of runs`);

  const rows: string[][] = [['aspect', 'pipeline', 'wall s', 'x real time', 'CPU s', 'peak MB', 'wall vs floor (each run)', 'CPU vs floor']];
  try {
    for (const aspect of aspects) {
      const { width, height } = outputSize(aspect, 720);
      const variants: [string, EncodeSettings, boolean?][] = [['engine', DEFAULT_ENCODE]];
      if (cold) variants.push(['engine, cold start', DEFAULT_ENCODE, true]);
      if (naive) variants.push(['full frames', { ...DEFAULT_ENCODE, fullFrames: true }]);
      const best = new Map<string, Run>();
      /** Per run, each label's measurement (ratios pair an engine render with the floor run after it). */
      const perRun: Map<string, Run>[] = [];
      const keep = (label: string, r: Run) => {
        perRun[perRun.length - 1]!.set(label, r);
        const b = best.get(label);
        if (!b || r.wall < b.wall) best.set(label, { ...r, cpu: Math.min(r.cpu, b?.cpu ?? Infinity), peakMb: Math.max(r.peakMb, b?.peakMb ?? 0) });
        else best.set(label, { ...b, cpu: Math.min(r.cpu, b.cpu), peakMb: Math.max(r.peakMb, b.peakMb) });
      };
      const raw = join(root, 'frames.yuv');
      const wav = join(root, 'audio.wav');
      for (let run = 0; run < runs; run++) {
        perRun.push(new Map());
        for (const [label, encode, coldStart] of variants) {
          const workDir = mkdtempSync(join(root, 'work-'));
          ff.take();
          const c = runChild({ text, aspect, encode, workDir, cacheDir: join(root, 'cache'), cold: coldStart });
          const r = c.result;
          const enc = ff.take();
          const video = join(workDir, 'video.mp4');
          keep(label, {
            wall: c.wall, cpu: c.cpu + enc.cpu, ffmpegCpu: enc.cpu, selfPeakMb: c.peakMb, peakMb: c.peakMb + enc.peakMb, stats: r.stats,
            duration: r.durationSeconds, bytes: statSync(video).size,
          });
          if (!existsSync(raw)) {
            // The floor's input: the rendered frames decoded once (untimed) to raw yuv420p, and its audio.
            execFileSync(real, ['-v', 'error', '-y', '-i', video, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', raw]);
            execFileSync(real, ['-v', 'error', '-y', '-i', video, '-vn', '-c:a', 'pcm_s16le', wav]);
          }
          rmSync(workDir, { recursive: true, force: true });
        }
        // The floor: ffmpeg alone encoding the same frames and audio with the same settings.
        ff.take();
        const t0 = performance.now();
        execFileSync(ff.bin, [
          '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`,
          '-framerate', '30', '-i', raw, '-i', wav, ...x264Args(DEFAULT_ENCODE), '-pix_fmt', 'yuv420p',
          '-c:a', 'aac', '-b:a', '128k', '-ar', '44100', '-movflags', '+faststart', '-f', 'mp4', join(root, 'floor.mp4'),
        ]);
        const wall = (performance.now() - t0) / 1000;
        const enc = ff.take();
        keep('floor', { wall, cpu: enc.cpu, peakMb: enc.peakMb, duration, bytes: statSync(join(root, 'floor.mp4')).size });
      }
      rmSync(raw, { force: true });
      const floor = best.get('floor')!;
      rows.push([aspect, 'floor: ffmpeg alone, raw → mp4', floor.wall.toFixed(2), (duration / floor.wall).toFixed(1), floor.cpu.toFixed(1), floor.peakMb.toFixed(0), '1.00', '1.00']);
      for (const [label] of variants) {
        const b = best.get(label)!;
        const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]!;
        const ratio = (k: 'wall' | 'cpu') => median(perRun.map((m) => m.get(label)![k] / m.get('floor')![k]));
        const spread = perRun.map((m) => (m.get(label)!.wall / m.get('floor')!.wall).toFixed(2)).join(' ');
        rows.push([
          aspect, label, b.wall.toFixed(2), (b.duration / b.wall).toFixed(1), b.cpu.toFixed(1), b.peakMb.toFixed(0),
          `${ratio('wall').toFixed(2)} (${spread})`, ratio('cpu').toFixed(2),
        ]);
        const st = b.stats;
        if (st) {
          console.log(
            `  ${aspect} ${label}: ${width}x${height}, ${b.duration.toFixed(1)} s, ${(b.bytes / 1e6).toFixed(1)} MB; speech ${st.speechSeconds.toFixed(2)} s, drawing ${st.drawSeconds.toFixed(2)} s, ` +
              `waiting on ffmpeg ${st.waitSeconds.toFixed(2)} s, ${((st.sentPixelsPerFrame / (width * height)) * 100).toFixed(0)} % of a frame's pixels sent per frame; ` +
              `CPU: engine process ${(b.cpu - (b.ffmpegCpu ?? 0)).toFixed(1)} s, its ffmpeg ${(b.ffmpegCpu ?? 0).toFixed(1)} s; peak: engine process ${(b.selfPeakMb ?? 0).toFixed(0)} MB`,
          );
        }
      }
    }
  } finally {
    if (savedPath === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = savedPath;
  }
  const w = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(w[i]!)).join('  '));
  console.log(`load average at end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log('goals on 2 cores: >= 10x real time, <= 1.3x the floor, peak < 400 MB (engine process + its ffmpeg)');
  rmSync(root, { recursive: true, force: true });
}
