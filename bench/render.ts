// `npm run bench -- render [--aspect 16:9,9:16] [--resolution 720p,1080p] [--seconds 60] [--naive] [--kinds single,pictures,clip,logo,music,breaks,photo]`
// A 60-second narration rendered at 720p (--resolution: also or only 1080p, each against a floor
// of its own frames) by the real engine; reports wall time, real-time
// factor, peak memory (engine process + ffmpeg) and the ratio to the encoder's floor measured
// in the same run: ffmpeg alone encoding the very same frames (the rendered video decoded once
// to raw yuv420p, then encoded from raw with the same x264/AAC settings and audio).
// --kinds: `single` is the one-scene job over the template (every aspect and voice); `pictures`
// the same narration as four scenes over pictures (presenter in two, fades and a slide, 16:9,
// the first voice); `clip` one scene over a looped video clip, against the floor plus decoding
// the clip alone (the engine's own decoder arguments, to raw frames at the output size); `logo`
// the one-scene job rendered with and without a brand logo in the same run (the logo's cost);
// `music` the same with and without a built-in track under it (music's cost; the track decoded
// before, as a studio has it from its second render of the track on, and with --cold also a first
// render of it: decoded and measured during the render); `breaks` the same with a 3 s pause
// (`<break time="3s"/>`) in the middle of the script and without it, compared per second of video
// (the pause lengthens the video); `photo`
// (not in the default) the same narration spoken by the vector rig and by the photo rig (the
// tests' astronaut portrait) at the same placement, and the photo rig's speed against the vector's.
// --naive adds the full-frame pipeline (every whole frame drawn and piped) as a second baseline.
// --voices picks the catalog voices rendered (default en-US-Ava, espeak-ng, and en-US-Lisa, SVOX
// Pico), each against a floor of its own frames. --neural adds a Piper voice pack: no real pack
// can be downloaded on the build machine, so it is the tests' stand-in ONNX model (same inputs and
// outputs, served and installed like a real pack); its real-time factor and model share describe
// that stand-in and the pipeline around it (phonemes, alignment, resampling), not a real model.
// The engine is measured as a running server has it, its speech synthesiser loaded and warm;
// --cold adds a render by an engine just created (espeak loaded and compiled during the render).
// Each engine render runs in a child process of the engine compiled to JavaScript by tsc, as the
// packaged app runs it (electron/build/tsconfig.server.json, here with the bench's own child
// code, into .bench/engine); --tsx runs the children from the sources through tsx instead, as a
// checkout's `npm run server` does (tsx's loader thread and compiled sources then add to the
// engine process's memory).
// Each measurement runs --runs times (default 3), the engine renders of a run followed by a floor
// run; the table shows the best run of each (on a shared machine the fastest run is the one least
// disturbed by other work), and the ratios to the floor are the median over runs of each engine
// render against the mean of the floor runs on either side of it (the first run's: the one after
// it): the machine's speed drifts over minutes, and a ratio of two best runs taken minutes apart
// would mostly measure that drift. CPU
// seconds (this process incl. its threads + ffmpeg, via GNU time) are reported next to wall.
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { z } from 'zod';
import { AspectRatio, outputSize, Resolution, SHORT_SIDES, SOUND_LIMITS } from '../shared/contract/index.js';
import { fillParams, templateEntry } from '../shared/scene/catalog.js';
import { createEngine, RenderResult, SpeechStats, type RenderScene } from '../server/engine/index.js';
import type { PhotoPresenterSpec, RenderBrand } from '../server/engine/types.js';
import { clipDecoderArgs } from '../server/engine/frames/backgrounds/clip.js';
import { decoderPath } from '../server/engine/encode/ffmpeg.js';
import { createCanvas } from '@napi-rs/canvas';
import { RESOURCES_DIR } from '../server/engine/frames/assets.js';
import { scriptChunks } from '../server/engine/speech/narration.js';
import { SpeechEngines } from '../server/engine/speech/speech-engines.js';
import { PiperSpeaker } from '../server/engine/speech/speech-piper.js';
import { servePiperPack } from '../server/engine/test/tiny-onnx.js';
import { VoicePacks } from '../server/engine/speech/voice-packs.js';
import { engineVoice, VoiceFile } from '../server/engine/speech/voices.js';
import { aacArgs, DEFAULT_ENCODE, EncodeSettings, x264Args } from '../server/engine/encode/encoder.js';
import { ffmpegPath } from '../server/engine/encode/ffmpeg.js';
import { SpeechSynth } from '../server/engine/speech/speech.js';

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

const narrationText = (sentences: number) => SENTENCES.slice(0, sentences).join(' ');

async function narration(seconds: number): Promise<{ text: string; duration: number }> {
  const synth = new SpeechSynth();
  const voice = engineVoice('en-US-Ava')!.espeak;
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

/** The median of runs (the lower of the middle two for an even count). */
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]!;

/**
 * The median of paired ratios with its 95 % interval (distribution-free: the order statistics
 * that bracket the median at least 95 % of the time, from the binomial law of the count below
 * it): on a shared machine a run's ratio strays by several percent, and a goal a few percent
 * away is met only if its interval says so.
 */
function medianWithInterval(xs: number[]): string {
  const sorted = [...xs].sort((x, y) => x - y);
  const n = sorted.length;
  // P(fewer than k runs fall below the median) for a fair coin per run.
  let below = 0;
  let k = 0;
  for (let c = 2 ** -n, j = 0; j < n; j++) {
    if (below + c > 0.025) break;
    below += c;
    k = j + 1;
    c = (c * (n - j)) / (j + 1);
  }
  const m = median(xs).toFixed(3);
  return k ? `${m} (95 % interval ${sorted[k - 1]!.toFixed(3)}–${sorted[n - k]!.toFixed(3)})` : `${m} (too few runs for a 95 % interval)`;
}

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

interface Run {
  wall: number;
  cpu: number;
  /** Of which ffmpeg's CPU seconds and the engine process's (in the best of runs: the least of each, as of the total), and the engine process's peak alone. */
  ffmpegCpu?: number;
  selfCpu?: number;
  selfPeakMb?: number;
  peakMb: number;
  stats?: RenderResult['stats'];
  duration: number;
  bytes: number;
}

/** What the parent asks a child process to do (passed as JSON on its command line). */
const ChildJob = z.object({
  text: z.string(),
  aspect: AspectRatio,
  resolution: Resolution,
  encode: EncodeSettings,
  workDir: z.string(),
  cacheDir: z.string(),
  /** Speech synthesiser loaded during the render instead of before it. */
  cold: z.boolean().optional(),
  voiceId: z.string(),
  catalogDir: z.string().optional(),
  /** Only speak the script's chunks (queued at once, as a render does): synthesis alone. */
  speakOnly: z.boolean().optional(),
  /** A video of scenes (the task's `scenes`, their media files made by the parent). */
  scenes: z.array(z.custom<RenderScene>()).optional(),
  /** Music mixed under the narration: this audio file, at the default volume, ducked. */
  music: z.string().optional(),
  /** The engine's cache of decoded music is empty (the track's first render). */
  musicCold: z.boolean().optional(),
  /** Extension `brand`, its logo file made by the parent. */
  brand: z.custom<RenderBrand>().optional(),
  /** The photo presenters the scenes name (the test fixture's portrait). */
  photoPresenters: z.record(z.string(), z.custom<PhotoPresenterSpec>()).optional(),
});
type ChildJob = z.infer<typeof ChildJob>;

/** What a child prints on its RESULT line. */
const ChildResult = z.object({ wall: z.number(), cpu: z.number(), peakMb: z.number(), result: RenderResult, speech: SpeechStats.optional() });
type ChildResult = z.infer<typeof ChildResult>;

/** The voice's speech alone: every chunk of the script queued at once on a warm synthesiser. */
async function speakOnly(job: ChildJob): Promise<void> {
  const espeak = new SpeechSynth(Infinity, { texts: [narrationText(3)], voice: engineVoice('en-US-Ava')!.espeak });
  const piper = new PiperSpeaker(new VoicePacks(join(job.cacheDir, 'voice-packs')), espeak);
  const engines = new SpeechEngines(espeak, { catalogDir: job.catalogDir, piper, warm: true });
  await engines.warmUp();
  const voice = engines.voice(job.voiceId);
  const t0 = performance.now();
  const spoken = await Promise.all(scriptChunks(job.text).map((c) => engines.speak(c, voice)));
  const wall = (performance.now() - t0) / 1000;
  const audio = spoken.reduce((n, sp) => n + sp.samples.length / sp.sampleRate, 0);
  await engines.close();
  console.log(`RESULT ${JSON.stringify({ wall, cpu: 0, peakMb: 0, result: { durationSeconds: audio, width: 0, height: 0 }, speech: piper.stats })}`);
}

/**
 * One engine render in this (fresh) process: prints wall time, this process's CPU seconds and
 * peak memory (VmHWM) as JSON. A fresh process per render keeps earlier runs' memory out of it.
 */
async function child(job: ChildJob): Promise<void> {
  if (job.speakOnly) return speakOnly(job);
  if (job.musicCold) rmSync(join(job.cacheDir, 'music'), { recursive: true, force: true });
  const engine = (await createEngine({ cacheDir: job.cacheDir, encode: job.encode, warmSpeech: !job.cold, catalogDir: job.catalogDir }))!;
  await engine.warmUp?.();
  resetPeak();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const templateId = job.aspect === '9:16' ? 'social-short' : 'newsroom';
  const r = await engine.render({
    jobId: 'bench', text: job.text, templateId, voiceId: job.voiceId, shortSide: SHORT_SIDES[job.resolution], scenes: job.scenes, brand: job.brand, photoPresenters: job.photoPresenters,
    params: fillParams(templateId, { aspectRatio: job.aspect, resolution: job.resolution }),
    ...(job.music ? { music: { assetId: 'bench', path: job.music, durationSeconds: null, volume: SOUND_LIMITS.musicVolumeDefault, duck: true } } : {}),
    workDir: job.workDir, signal: new AbortController().signal, onProgress: () => undefined,
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const speech = engine.speechStats?.();
  await engine.close?.();
  console.log(`RESULT ${JSON.stringify({ wall, cpu: (cpu.user + cpu.system) / 1e6, peakMb: peakMb(), result: r, speech })}`);
}


/**
 * A catalog with the stand-in neural voice (en-US-Tiny) and its pack installed in the bench's
 * cache, downloaded from a local server through the studio's own download and checks.
 */
async function standInNeuralVoice(root: string): Promise<string> {
  const pack = await servePiperPack();
  const dir = join(root, 'catalog');
  execFileSync('mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'templates.json'), readFileSync(join(RESOURCES_DIR, 'templates.json')));
  const shipped = VoiceFile.parse(JSON.parse(readFileSync(join(RESOURCES_DIR, 'voices.json'), 'utf8')));
  writeFileSync(join(dir, 'voices.json'), JSON.stringify({ voices: [...shipped.voices, pack.voice('en-US-Tiny', '9001', 'Tiny')] }));
  try {
    await new VoicePacks(join(root, 'cache', 'voice-packs')).ensure(engineVoice('en-US-Tiny', dir)!);
  } finally {
    pack.close();
  }
  return dir;
}

const REPO = join(import.meta.dirname, '..');
/** Where the compiled engine and bench child go (gitignored). */
const COMPILED = join(REPO, '.bench', 'engine');

/**
 * The engine and this bench compiled by tsc with the packaged app's settings, beside the sources'
 * layout (their relative paths to resources/ and package.json hold through links); the .mjs
 * modules (workers, WebAssembly glue) are copied as the app ships them.
 */
function compileEngine(): string {
  rmSync(COMPILED, { recursive: true, force: true });
  const config = join(COMPILED, 'tsconfig.json');
  mkdirSync(COMPILED, { recursive: true });
  writeFileSync(config, JSON.stringify({
    extends: relative(COMPILED, join(REPO, 'electron/build/tsconfig.server.json')),
    compilerOptions: { outDir: '.', rootDir: relative(COMPILED, REPO) },
    include: ['server/**/*.ts', 'shared/**/*.ts', 'bench/index.ts', 'bench/render.ts'].map((g) => relative(COMPILED, join(REPO, g))),
  }));
  // tsc also emits the JSON files the code imports; the links below replace them.
  const win = process.platform === 'win32';
  execFileSync(win ? 'npx.cmd' : 'npx', ['tsc', '-p', config], { cwd: REPO, stdio: 'inherit', shell: win });
  for (const dir of ['server', 'shared']) {
    for (const f of readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })) {
      if (!f.endsWith('.mjs')) continue;
      mkdirSync(dirname(join(COMPILED, dir, f)), { recursive: true });
      cpSync(join(REPO, dir, f), join(COMPILED, dir, f));
    }
  }
  rmSync(join(COMPILED, 'resources'), { recursive: true, force: true });
  symlinkSync(join(REPO, 'resources'), join(COMPILED, 'resources'), 'junction'); // a junction: Windows needs no privilege for it
  cpSync(join(REPO, 'package.json'), join(COMPILED, 'package.json'));
  return join(COMPILED, 'bench', 'index.js');
}

/** The child's entry: the compiled bench (default), or null: the sources through tsx (--tsx). */
let compiledEntry: string | null = null;

function runChild(job: ChildJob): ChildResult {
  const entry = compiledEntry ? [compiledEntry] : [...process.execArgv, join(import.meta.dirname, 'index.ts')];
  const out = execFileSync(process.execPath, [...entry, 'render', '--child', JSON.stringify(job)], {
    env: process.env, maxBuffer: 1 << 24,
  }).toString();
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`bench child printed no result:\n${out}`);
  return ChildResult.parse(JSON.parse(line.slice(7)));
}

export const USAGE = 'npm run bench -- render [--aspect 16:9,9:16] [--resolution 720p,1080p] [--seconds 60] [--runs 5] [--naive] [--cold] [--voices en-US-Ava,en-US-Lisa] [--neural] [--tsx] [--kinds single,pictures,clip,logo,music,breaks,photo]';
export const OPTIONS = {
  child: { type: 'string' },
  aspect: { type: 'string', default: '16:9,9:16' },
  resolution: { type: 'string', default: '720p' },
  seconds: { type: 'string', default: '60' },
  runs: { type: 'string', default: '5' },
  naive: { type: 'boolean', default: false },
  cold: { type: 'boolean', default: false },
  voices: { type: 'string', default: 'en-US-Ava,en-US-Lisa' },
  neural: { type: 'boolean', default: false },
  tsx: { type: 'boolean', default: false },
  kinds: { type: 'string', default: 'single,pictures,clip' },
} as const satisfies ParseArgsOptionsConfig;

/** What is rendered: the one-scene job, or a video of scenes (with the decoding its floor adds). */
interface Workload {
  name: string;
  aspect: AspectRatio;
  resolution: Resolution;
  voiceId: string;
  scenes?: RenderScene[];
  /** A brand logo: the workload is rendered with and without it. */
  brand?: RenderBrand;
  /** Decodes the clip alone as the engine does, for this many seconds of video (timed into the floor). */
  decode?: (seconds: number) => void;
  /** The same job rendered again with this music under it, in every run (the ratio is music's cost). */
  music?: string;
  /** The same job rendered again with this script (the narration with a pause tag), in every run. */
  breaks?: string;
  photoPresenters?: Record<string, PhotoPresenterSpec>;
}

/** Pictures with detail to encode (gradients, shapes, fine lines), 1920×1080 PNGs decoded and scaled by the engine. */
function benchPictures(root: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const c = createCanvas(1920, 1080);
    const ctx = c.getContext('2d');
    const g = ctx.createLinearGradient(0, 0, 1920, 1080);
    g.addColorStop(0, `hsl(${i * 90}, 60%, 35%)`);
    g.addColorStop(1, `hsl(${i * 90 + 50}, 70%, 65%)`);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, 1920, 1080);
    for (let k = 0; k < 40; k++) {
      ctx.fillStyle = `hsla(${(k * 37 + i * 60) % 360}, 70%, 60%, 0.5)`;
      ctx.beginPath();
      ctx.arc((k * 277) % 1920, (k * 131 + i * 50) % 1080, 30 + ((k * 13) % 120), 0, Math.PI * 2);
      ctx.fill();
    }
    ctx.strokeStyle = 'rgba(255,255,255,0.25)';
    for (let x = 0; x < 1920; x += 24) {
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x + 300, 1080);
      ctx.stroke();
    }
    const file = join(root, `picture-${i}.png`);
    writeFileSync(file, c.toBuffer('image/png'));
    return file;
  });
}

/** The narration's sentences in `parts` scenes of about equal length. */
function splitScript(text: string, parts: number): string[] {
  const sentences = text.match(/[^.!?]+[.!?]+/g)?.map((x) => x.trim()) ?? [text];
  const out: string[][] = Array.from({ length: parts }, () => []);
  const total = text.length;
  let at = 0;
  for (const s of sentences) {
    out[Math.min(parts - 1, Math.floor((at / total) * parts))]!.push(s);
    at += s.length + 1;
  }
  return out.map((x) => x.join(' ')).filter(Boolean);
}

function workloads(kinds: string[], aspects: AspectRatio[], resolutions: Resolution[], voiceIds: string[], text: string, root: string, real: string): Workload[] {
  return resolutions.flatMap((resolution) => workloadsAt(kinds, aspects, resolution, voiceIds, text, root, real));
}

function workloadsAt(kinds: string[], aspects: AspectRatio[], resolution: Resolution, voiceIds: string[], text: string, root: string, real: string): Workload[] {
  const out: Workload[] = [];
  if (kinds.includes('single')) for (const aspect of aspects) for (const voiceId of voiceIds) out.push({ name: 'one scene', aspect, resolution, voiceId });
  const base = (t: string, over: Partial<RenderScene>): RenderScene => ({
    text: t, templateId: 'newsroom', voiceId: voiceIds[0]!, presenterId: templateEntry('newsroom')!.presenter.id, avatar: fillParams('newsroom', {}).avatar, background: null,
    transition: 'cut', media: null, ...over,
  });
  if (kinds.includes('pictures')) {
    const pictures = benchPictures(root, 4);
    const transitions = ['cut', 'fade', 'slide', 'fade'] as const;
    out.push({
      name: 'four scenes over pictures', aspect: '16:9', resolution, voiceId: voiceIds[0]!,
      scenes: splitScript(text, 4).map((t, i) => base(t, {
        avatar: i % 2 ? null : fillParams('newsroom', {}).avatar, transition: transitions[i]!,
        background: { assetId: `p${i}`, fit: 'cover' },
        media: { kind: 'image', path: pictures[i]!, mediaType: 'image/png', width: 1920, height: 1080, durationSeconds: null, pages: null },
      })),
    });
  }
  if (kinds.includes('logo')) {
    const c = createCanvas(400, 160);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#0b6fb8';
    ctx.beginPath();
    ctx.roundRect(0, 0, 400, 160, 40);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 90px "DejaVu Sans"';
    ctx.fillText('ACME', 60, 115);
    const path = join(root, 'logo.png');
    writeFileSync(path, c.toBuffer('image/png'));
    out.push({
      name: 'one scene', aspect: '16:9', resolution, voiceId: voiceIds[0]!,
      brand: { brand: { logo: { assetId: 'logo', position: 'top-right', size: 0.15 } }, logo: { path, width: 400, height: 160 }, font: null },
    });
  }
  if (kinds.includes('photo')) {
    // The photo rig against the vector rig on the same narration and placement.
    const fixtures = join(import.meta.dirname, '../tests/fixtures');
    const marks = z.object({ width: z.number(), height: z.number(), landmarks: z.array(z.array(z.number())) })
      .parse(JSON.parse(readFileSync(join(fixtures, 'astronaut.landmarks.json'), 'utf8')));
    const photo: PhotoPresenterSpec = {
      kind: 'photo', id: 'pht_bench', portraitPath: join(fixtures, 'astronaut.jpg'), maskPath: null, width: marks.width, height: marks.height,
      landmarks: marks.landmarks.map((p) => [p[0]!, p[1]!]),
    };
    out.push({ name: 'presenter: vector rig', aspect: '16:9', resolution, voiceId: voiceIds[0]!, scenes: [base(text, {})] });
    out.push({ name: 'presenter: photo rig', aspect: '16:9', resolution, voiceId: voiceIds[0]!, scenes: [base(text, { presenterId: photo.id })], photoPresenters: { [photo.id]: photo } });
  }
  if (kinds.includes('clip')) {
    const clip = join(root, 'clip.mp4');
    execFileSync(real, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=20', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', clip]);
    const background = { assetId: 'c', fit: 'cover' as const, loop: true };
    out.push({
      name: 'one scene over a clip', aspect: '16:9', resolution, voiceId: voiceIds[0]!,
      scenes: [base(text, { background, media: { kind: 'video', path: clip, mediaType: 'video/mp4', width: 1280, height: 720, durationSeconds: 20, pages: null } })],
      decode: (seconds) => {
        const { width, height } = outputSize('16:9', SHORT_SIDES[resolution]);
        const args = clipDecoderArgs(clip, width, height, background);
        execFileSync(decoderPath(), [...args.slice(0, -1), '-t', String(seconds), '-y', '/dev/null'], { maxBuffer: 1 << 20 });
      },
    });
  }
  if (kinds.includes('music')) {
    out.push({ name: 'one scene', aspect: '16:9', resolution, voiceId: voiceIds[0]!, music: join(RESOURCES_DIR, 'music', 'calm-morning.mp3') });
  }
  if (kinds.includes('breaks')) {
    // A 3 s pause after the sentence nearest the middle of the script.
    const ends = [...text.matchAll(/[.!?](?=\s)/g)].map((m) => m.index + 1);
    const at = ends.reduce((best, e) => (Math.abs(e - text.length / 2) < Math.abs(best - text.length / 2) ? e : best), ends[0] ?? text.length);
    out.push({ name: 'one scene', aspect: '16:9', resolution, voiceId: voiceIds[0]!, breaks: `${text.slice(0, at)} <break time="3s"/>${text.slice(at)}` });
  }
  return out;
}

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: OPTIONS });
  if (values.child) return child(ChildJob.parse(JSON.parse(values.child)));
  const aspects = values.aspect.split(',').map((a) => AspectRatio.parse(a));
  const resolutions = values.resolution.split(',').map((r) => Resolution.parse(r));
  const seconds = Number(values.seconds);
  const runs = Math.max(1, Number(values.runs));
  const { naive, cold } = values;
  if (!values.tsx) compiledEntry = compileEngine();
  const root = mkdtempSync(join(tmpdir(), 'ps-bench-render-'));
  const real = ffmpegPath();
  const ff = timedFfmpeg(root, real);
  const savedPath = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = ff.bin;
  console.log(`ffmpeg: ${real} (${execFileSync(real, ['-version']).toString().split('\n')[0]})`);
  console.log(`cores: ${availableParallelism()}, load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(compiledEntry
    ? 'engine renders: child processes running the engine compiled to JavaScript, as the packaged app runs it (--tsx: the sources through tsx, as a checkout\'s npm run server)'
    : 'engine renders: child processes running the sources through tsx, as a checkout\'s npm run server (tsx\'s loader thread and compiled sources add to the engine process\'s memory)');
  const { text, duration } = await narration(seconds);
  const voiceIds = values.voices.split(',');
  const catalogDir = values.neural ? await standInNeuralVoice(root) : undefined;
  if (catalogDir) voiceIds.push('en-US-Tiny');
  const notes: string[] = [];
  console.log(`narration: ${text.split(/\s+/).length} words, ${duration.toFixed(1)} s of speech; x264 ${JSON.stringify(DEFAULT_ENCODE)}; best of ${runs} runs, ratios: median of runs`);

  /** Each workload's best engine run, for the rig comparison. */
  const engineWall = new Map<string, Run>();
  const rows: string[][] = [['aspect', 'pipeline', 'wall s', 'x real time', 'CPU s', 'peak MB', 'wall vs floor (each run)', 'CPU vs floor']];
  try {
    for (const { name, aspect: ratio, resolution, voiceId, scenes, decode, brand, music, breaks, photoPresenters } of workloads(values.kinds.split(','), aspects, resolutions, voiceIds, text, root, real)) {
      const { width, height } = outputSize(ratio, SHORT_SIDES[resolution]);
      const aspect = `${ratio} ${resolution}`;
      const engineName = engineVoice(voiceId, catalogDir)!.engine;
      const v = `${name}, ${voiceId} (${engineName})`;
      type Extra = { brand?: RenderBrand; music?: string; musicCold?: boolean; text?: string };
      const variants: [string, EncodeSettings, boolean?, Extra?][] = [[`engine, ${v}`, DEFAULT_ENCODE]];
      if (brand) variants.push([`engine with a logo, ${v}`, DEFAULT_ENCODE, false, { brand }]);
      if (music) variants.push([`engine, ${v}, with music`, DEFAULT_ENCODE, false, { music }]);
      if (music && cold) variants.push([`engine, ${v}, with music, its first render`, DEFAULT_ENCODE, false, { music, musicCold: true }]);
      if (breaks) variants.push([`engine, ${v}, with a 3 s break`, DEFAULT_ENCODE, false, { text: breaks }]);
      if (cold && !scenes && !music && !breaks) variants.push([`engine, cold start, ${v}`, DEFAULT_ENCODE, true]);
      if (naive && !scenes) variants.push([`full frames, ${v}`, { ...DEFAULT_ENCODE, fullFrames: true }]);
      let synthAlone = Infinity;
      let modelShare = 0;
      const best = new Map<string, Run>();
      /** Per run, each label's measurement (ratios pair an engine render with the floor run after it). */
      const perRun: Map<string, Run>[] = [];
      const keep = (label: string, r: Run) => {
        perRun[perRun.length - 1]!.set(label, r);
        const b = best.get(label);
        const least = (k: 'cpu' | 'ffmpegCpu' | 'selfCpu') => Math.min(r[k] ?? Infinity, b?.[k] ?? Infinity);
        const parts = { cpu: least('cpu'), ffmpegCpu: least('ffmpegCpu'), selfCpu: least('selfCpu'), peakMb: Math.max(r.peakMb, b?.peakMb ?? 0) };
        best.set(label, !b || r.wall < b.wall ? { ...r, ...parts } : { ...b, ...parts });
      };
      const raw = join(root, 'frames.yuv');
      const wav = join(root, 'audio.wav');
      if (music) {
        // Untimed: a studio's first render of the track, so the timed ones find it decoded before.
        const workDir = mkdtempSync(join(root, 'work-'));
        runChild({ text, aspect: ratio, resolution, encode: DEFAULT_ENCODE, workDir, cacheDir: join(root, 'cache'), voiceId, catalogDir, music });
        rmSync(workDir, { recursive: true, force: true });
      }
      for (let run = 0; run < runs; run++) {
        perRun.push(new Map());
        // Renders compared with each other (logo, music, breaks) run in turns of order, so a load that rises through the command weighs on all.
        const order = (brand || music || breaks) && run % 2 === 1 ? [...variants].reverse() : variants;
        for (const [label, encode, coldStart, extra] of order) {
          const workDir = mkdtempSync(join(root, 'work-'));
          ff.take();
          const c = runChild({
            text: extra?.text ?? text, aspect: ratio, resolution, encode, workDir, cacheDir: join(root, 'cache'), cold: coldStart, voiceId, catalogDir, scenes, photoPresenters, brand: extra?.brand,
            ...(extra?.music ? { music: extra.music } : {}), ...(extra?.musicCold ? { musicCold: true } : {}),
          });
          if (c.speech?.totalSeconds) modelShare = c.speech.modelSeconds / c.wall;
          const r = c.result;
          const enc = ff.take();
          const video = join(workDir, 'video.mp4');
          keep(label, {
            wall: c.wall, cpu: c.cpu + enc.cpu, ffmpegCpu: enc.cpu, selfCpu: c.cpu, selfPeakMb: c.peakMb, peakMb: c.peakMb + enc.peakMb, stats: r.stats,
            duration: r.durationSeconds, bytes: statSync(video).size,
          });
          if (!existsSync(raw)) {
            // The floor's input: the rendered frames decoded once (untimed) to raw yuv420p, and its audio.
            execFileSync(real, ['-v', 'error', '-y', '-i', video, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', raw]);
            execFileSync(real, ['-v', 'error', '-y', '-i', video, '-vn', '-c:a', 'pcm_s16le', wav]);
          }
          rmSync(workDir, { recursive: true, force: true });
        }
        if (engineName !== 'espeak') {
          // Synthesis alone (every chunk, the engine warm, no frames), for the neural goal: render ≤ 1.3 × (synthesis + floor).
          const sp = runChild({ text, aspect: ratio, resolution, encode: DEFAULT_ENCODE, workDir: root, cacheDir: join(root, 'cache'), voiceId, catalogDir, speakOnly: true });
          synthAlone = Math.min(synthAlone, sp.wall);
        }
        // The floor: ffmpeg alone encoding the same frames and audio with the same settings
        // (and, for a clip, decoding the clip as the engine does).
        ff.take();
        const t0 = performance.now();
        decode?.(best.get(variants[0]![0])!.duration);
        execFileSync(ff.bin, [
          '-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`,
          '-framerate', '30', '-i', raw, '-i', wav, ...x264Args(DEFAULT_ENCODE), '-pix_fmt', 'yuv420p',
          ...aacArgs(1), '-movflags', '+faststart', '-f', 'mp4', join(root, 'floor.mp4'),
        ]);
        const wall = (performance.now() - t0) / 1000;
        const enc = ff.take();
        keep('floor', { wall, cpu: enc.cpu, peakMb: enc.peakMb, duration, bytes: statSync(join(root, 'floor.mp4')).size });
      }
      rmSync(raw, { force: true });
      if (brand) {
        // The logo's cost: each run's render with it against the same run's render without it.
        const [plain, logo] = variants.map(([label]) => label);
        const costs = perRun.map((m) => m.get(logo!)!.wall / m.get(plain!)!.wall).sort((x, y) => x - y);
        const cpu = perRun.map((m) => m.get(logo!)!.cpu / m.get(plain!)!.cpu).sort((x, y) => x - y);
        notes.push(`${aspect} logo: wall with / without ${median(costs).toFixed(3)} (each run: ${costs.map((c) => c.toFixed(3)).join(' ')}), CPU ${medianWithInterval(cpu)} (each run: ${cpu.map((c) => c.toFixed(3)).join(' ')}); goal <= 1.03`);
      }
      if (music || breaks) {
        // Music's (breaks') cost: each run's render with it against the same job without it, in
        // that run; a pause lengthens the video, so breaks are compared per second of video.
        const [without, ...others] = variants.map(([label]) => label);
        const each = (xs: number[]) => xs.map((c) => c.toFixed(3)).join(' ');
        for (const other of others) {
          const per = (r: Run) => (breaks ? r.duration : 1);
          const ratio = (k: (r: Run) => number) => perRun.map((m) => k(m.get(other!)!) / per(m.get(other!)!) / (k(m.get(without!)!) / per(m.get(without!)!)));
          const wall = ratio((r) => r.wall);
          const cpu = ratio((r) => r.cpu);
          const self = ratio((r) => r.selfCpu ?? 0);
          const ff = ratio((r) => r.ffmpegCpu ?? 0);
          const what = other!.slice(without!.length + 2);
          notes.push(
            `${aspect} ${name}: ${what} / without${breaks ? ', per second of video' : ''}, wall: ${median(wall).toFixed(3)} (each run: ${each(wall)}), ` +
              `CPU (engine + its ffmpeg): ${medianWithInterval(cpu)} (each run: ${each(cpu)}; engine process ${median(self).toFixed(3)}, its ffmpeg ${median(ff).toFixed(3)}); goal <= 1.05`,
          );
        }
      }
      const floor = best.get('floor')!;
      rows.push([aspect, `floor: ffmpeg alone, ${decode ? 'clip decoded + ' : ''}raw → mp4, ${name}, ${voiceId}`, floor.wall.toFixed(2), (duration / floor.wall).toFixed(1), floor.cpu.toFixed(1), floor.peakMb.toFixed(0), '1.00', '1.00']);
      for (const [label] of variants) {
        const b = best.get(label)!;
        if (label === variants[0]![0]) engineWall.set(`${resolution} ${name}`, b);
        // A render against the floor runs on either side of it (the previous run's and its own):
        // this host's speed drifts within a run, and the mean of both cancels a steady drift.
        const around = (i: number, k: 'wall' | 'cpu') => {
          const floors = perRun.slice(Math.max(0, i - 1), i + 1).map((m) => m.get('floor')![k]);
          return floors.reduce((a, b) => a + b, 0) / floors.length;
        };
        const ratios = (k: 'wall' | 'cpu') => perRun.map((m, i) => m.get(label)![k] / around(i, k));
        const ratio = (k: 'wall' | 'cpu') => median(ratios(k));
        const spread = ratios('wall').map((r) => r.toFixed(2)).join(' ');
        rows.push([
          aspect, label, b.wall.toFixed(2), (b.duration / b.wall).toFixed(1), b.cpu.toFixed(1), b.peakMb.toFixed(0),
          `${ratio('wall').toFixed(2)} (${spread})`, ratio('cpu').toFixed(2),
        ]);
        if (Number.isFinite(synthAlone) && !label.startsWith('full frames')) {
          notes.push(
            `${aspect} ${label}: synthesis alone ${synthAlone.toFixed(2)} s (${(b.duration / synthAlone).toFixed(1)}x real time)` +
              (engineName === 'piper' ? `, model share of the render's wall time ${(modelShare * 100).toFixed(2)} %` : '') +
              `; render wall / (synthesis alone + floor) = ${(b.wall / (synthAlone + floor.wall)).toFixed(2)}`,
          );
        }
        const st = b.stats;
        if (st) {
          console.log(
            `  ${aspect} ${label}: ${width}x${height}, ${b.duration.toFixed(1)} s, ${(b.bytes / 1e6).toFixed(1)} MB; speech ${st.speechSeconds.toFixed(2)} s, drawing ${st.drawSeconds.toFixed(2)} s, ` +
              `waiting on ffmpeg ${st.waitSeconds.toFixed(2)} s, ${((st.sentPixelsPerFrame / (width * height)) * 100).toFixed(0)} % of a frame's pixels sent per frame; ` +
              `CPU: engine process ${(b.selfCpu ?? 0).toFixed(2)} s, its ffmpeg ${(b.ffmpegCpu ?? 0).toFixed(2)} s; peak: engine process ${(b.selfPeakMb ?? 0).toFixed(0)} MB`,
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
  for (const resolution of resolutions) {
    const vector = engineWall.get(`${resolution} presenter: vector rig`);
    const photoRun = engineWall.get(`${resolution} presenter: photo rig`);
    if (!vector || !photoRun) continue;
    notes.push(
      `photo rig: ${(photoRun.duration / photoRun.wall).toFixed(1)}x real time at ${resolution}; speed against the vector rig on the same narration and placement ` +
        `(vector wall / photo wall, best runs) ${(vector.wall / photoRun.wall).toFixed(2)}`,
    );
  }
  for (const n of notes) console.log(n);
  console.log(`load average at end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(
    'goals on 2 cores: espeak >= 10x real time, <= 1.3x the floor, peak < 400 MB (engine process + its ffmpeg), also over pictures; ' +
      'over a clip <= 1.3x (clip decoded + floor); Pico >= 8x real time; neural: render <= 1.3x (synthesis alone + floor); ' +
      '1080p 16:9 >= 5x real time, <= 1.3x its own floor',
      'photo rig >= 10x real time and >= 0.7x the vector rig\'s speed',
  );
  rmSync(root, { recursive: true, force: true });
}
