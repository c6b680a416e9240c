// Engine factory used by the server: the real engine (espeak-ng speech → shared/scene frames
// on @napi-rs/canvas → ffmpeg).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { type AspectRatio } from '../../shared/contract/index.js';
import { castEntry, drawFrame, fillParams, NEUTRAL_POSE, templateEntry } from '../../shared/scene/index.js';
import { renderVideo, STALL_MS } from './render.js';
import { DEFAULT_ENCODE, type EncodeSettings } from './encode/encoder.js';
import { drawPresenterPortrait } from './frames/rigs.js';
import { headCacheNode, prepareScene } from './frames/scene-frames.js';
import { Leveler } from './speech/loudness.js';
import { sampleLine } from './speech/voice-sample.js';
import { SpeechSynth } from './speech/speech.js';
import { SpeechEngines, WARM_UP_TEXTS } from './speech/speech-engines.js';
import { PiperSpeaker } from './speech/speech-piper.js';
import { KokoroSpeaker } from './speech/speech-kokoro.js';
import { rehearseRender } from './rehearsal.js';
import { mixPreview } from './mix/preview.js';
import { forgetMusic } from './mix/music-cache.js';
import { EngineError, type RenderEngine, type RenderTask } from './types.js';
import { VoicePacks } from './speech/voice-packs.js';
import { espeakVoice } from './speech/voices.js';
import { wavBytes } from './encode/wav.js';

export interface EngineOptions {
  /** Where the engine may keep caches (voice samples, thumbnails). */
  cacheDir: string;
  /** x264 settings (benchmarks compare them); defaults suit talking-head content. */
  encode?: EncodeSettings;
  /** Load and warm the speech synthesiser now and keep it warm while idle (default true). */
  warmSpeech?: boolean;
  /** How long speech or ffmpeg may make no progress before a render fails as stuck (default 60 s). */
  stallMs?: number;
  /** Where voices.json is read from (default the bundled resources; tests add voices). */
  catalogDir?: string;
}

/** Writes a cache file atomically (a crash never leaves half a file to be served later). */
async function cacheWrite(path: string, bytes: Buffer): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

export async function createEngine(options: EngineOptions): Promise<RenderEngine | null> {
  const warm = options.warmSpeech ?? true;
  let rendering = 0;
  let closed = false;
  // The warm-ups wait while a render runs (one that starts with the studio keeps the cores).
  let idleWaiters: (() => void)[] = [];
  const whenIdle = () => (rendering === 0 || closed ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve)));
  const wakeIdle = () => {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };
  // Warm: the worker stays for the engine's lifetime (~25 MB), so no render pays espeak's start.
  const espeak = warm
    ? new SpeechSynth(Infinity, { texts: WARM_UP_TEXTS, voice: espeakVoice('en-US-Ava')!, whenIdle })
    : new SpeechSynth();
  const encode = options.encode ?? DEFAULT_ENCODE;
  const cacheDir = options.cacheDir;
  await mkdir(cacheDir, { recursive: true });
  // Neural voice packs are kept next to the other caches, so they survive restarts (offline use).
  const packs = new VoicePacks(join(cacheDir, 'voice-packs'));
  // Decoded music too (mix/music-cache.ts): a track's second render starts no decoder.
  const musicCache = join(cacheDir, 'music');
  const piper = new PiperSpeaker(packs, espeak);
  const kokoro = new KokoroSpeaker(packs, espeak);
  const speech = new SpeechEngines(espeak, { catalogDir: options.catalogDir, piper, kokoro, warm, whenIdle });
  let rehearsed: Promise<void> | null = null;
  // Speech first (a render waits for it most), then, once, a rehearsal of the frames (rehearsal.ts).
  const warmUp = async () => {
    await speech.warmUp();
    if (warm) await (rehearsed ??= rehearseRender(speech, whenIdle, () => closed));
  };
  if (warm) void warmUp();
  const inflight = new Map<string, Promise<Buffer>>();
  // Cached artefacts are keyed by what they are made from, so changed art or voices refresh them.
  const cached = (key: string, ext: string, make: () => Promise<Buffer>): Promise<Buffer> => {
    const file = join(cacheDir, `${key}-${createHash('sha1').update(key + ENGINE_ART_VERSION).digest('hex').slice(0, 10)}.${ext}`);
    let p = inflight.get(file);
    if (!p) {
      p = readFile(file).catch(async () => {
        const bytes = await make();
        await cacheWrite(file, bytes);
        return bytes;
      });
      inflight.set(file, p);
      p.catch(() => inflight.delete(file));
    }
    return p;
  };

  return {
    name: 'espeak-canvas-ffmpeg',
    async render(task: RenderTask) {
      rendering++;
      try {
        return await renderVideo(task, speech, encode, options.stallMs ?? STALL_MS, musicCache);
      } finally {
        if (--rendering === 0) wakeIdle();
      }
    },
    warmUp,

    voiceSample(voiceId: string, say?: string): Promise<Buffer> {
      let voice;
      try {
        voice = speech.voice(voiceId);
      } catch (e) {
        return Promise.reject(e as Error);
      }
      if (say !== undefined) {
        return speech.speak(say, voice).then((sp) => wavBytes(new Leveler().level(sp.samples, sp.sampleRate), sp.sampleRate));
      }
      // At the narration's loudness, as the video will have it.
      return cached(`voice-${voice.id}`, 'wav', async () => {
        const sp = await speech.speak(sampleLine(voice), voice);
        return wavBytes(new Leveler().level(sp.samples, sp.sampleRate), sp.sampleRate);
      });
    },

    soundPreview: ({ text, voiceId, music }, signal) => mixPreview(speech, text, voiceId, music, signal, musicCache),
    forgetMusic: (path) => forgetMusic(musicCache, path),

    // Both neural engines' time together (one studio renders one voice at a time).
    speechStats: () => ({
      modelSeconds: piper.stats.modelSeconds + kokoro.stats.modelSeconds,
      totalSeconds: piper.stats.totalSeconds + kokoro.stats.totalSeconds,
      audioSeconds: piper.stats.audioSeconds + kokoro.stats.audioSeconds,
    }),
    voicePack: async (voiceId: string) => packs.status(speech.voice(voiceId)),
    installVoicePack: async (voiceId: string) => packs.install(speech.voice(voiceId)),

    templateThumbnail(templateId: string, aspectRatio: AspectRatio): Promise<Buffer> {
      if (!templateEntry(templateId)) return Promise.reject(new EngineError('invalid_input', `Unknown template "${templateId}".`));
      return cached(`template-${templateId}-${aspectRatio.replace(':', 'x')}`, 'jpg', async () => {
        const params = fillParams(templateId, { aspectRatio });
        const { layout, rig, background } = await prepareScene(templateId, { params, shortSide: 720 }, []);
        const c = createCanvas(layout.size.width, layout.size.height);
        const caption = { lines: [['Your', 'script,'], ['word', 'by', 'word.']], activeIndex: 2 };
        drawFrame(c.getContext('2d'), rig, layout, { pose: NEUTRAL_POSE, caption }, { background: background ?? undefined, headCache: headCacheNode() });
        return c.encode('jpeg', 85);
      });
    },

    presenterThumbnail(presenterId: string): Promise<Buffer> {
      if (!castEntry(presenterId)) return Promise.reject(new EngineError('invalid_input', `Unknown presenter "${presenterId}".`));
      return cached(`presenter-${presenterId}`, 'png', async () => drawPresenterPortrait(presenterId));
    },

    close: () => {
      closed = true;
      wakeIdle();
      return speech.close();
    },
  };
}

/** Bumped when the art, drawing or sound changes, so cached thumbnails and voice samples are made anew (6: the cast of sixteen). */
const ENGINE_ART_VERSION = '6';

export * from './types.js';
