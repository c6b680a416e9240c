// One render: the timeline of scenes (timeline.ts) spoken and drawn into frames (only what
// changes), encoded by ffmpeg → video.mp4, captions.vtt, thumbnail.jpg in the task's work
// directory. Temporary files are removed on every path.
import { once } from 'node:events';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OUTPUT_FPS } from '../../shared/contract/index.js';
import { templateEntry } from '../../shared/scene/index.js';
import { DEFAULT_ENCODE, Encoder, type EncodeSettings } from './encode/encoder.js';
import { toWebVtt } from './encode/vtt.js';
import { writeError } from './encode/ffmpeg-errors.js';
import { FramePool } from './frames/scene-frames.js';
import { MusicMix } from './mix/music-mix.js';
import { MIX_SAMPLE_RATE } from './mix/music-source.js';
import { SPEECH_SAMPLE_RATE } from './speech/speech.js';
import type { SpeechEngines } from './speech/speech-engines.js';
import { taskScenes, Timeline, type AudioPiece } from './timeline.js';
import { EngineError, type RenderResult, type RenderTask } from './types.js';

const canceled = () => new EngineError('canceled', 'The render was canceled.');

/** Seconds of narration kept ready ahead of the frame being drawn (ffmpeg wants audio a little ahead of video). */
const AUDIO_LEAD = 2;

/** How long speech or ffmpeg may go without progress before the render is stopped as stuck. */
export const STALL_MS = 60_000;

/** `musicCache`: where decoded music is kept between renders (null: decoded at every render). */
export async function renderVideo(
  task: RenderTask, speech: SpeechEngines, encode: EncodeSettings = DEFAULT_ENCODE, stallMs = STALL_MS, musicCache: string | null = null,
): Promise<RenderResult> {
  const { workDir } = task;
  const scenes = taskScenes(task);
  for (const s of scenes) if (!templateEntry(s.templateId)) throw new EngineError('invalid_input', `Unknown template "${s.templateId}".`);
  const voices = scenes.map((s) => speech.voice(s.voiceId));
  // Stops speech, the decoders and ffmpeg on the task's cancel, or when one of them stalls.
  const stop = new AbortController();
  const signal = stop.signal;
  const onCancel = () => stop.abort();
  task.signal.addEventListener('abort', onCancel, { once: true });
  if (task.signal.aborted) stop.abort();
  /** `p`, unless it makes no progress for stallMs: then everything stops and the render fails with `error`. */
  const within = <T>(p: Promise<T>, error: () => EngineError): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const e = error();
        stop.abort();
        reject(e);
      }, stallMs);
      p.then(
        (v) => (clearTimeout(timer), resolve(v)),
        (e: unknown) => (clearTimeout(timer), reject(e)),
      );
    });
  const speechStalled = () => new EngineError('speech_failed', `Speech synthesis stopped responding (nothing for ${Math.round(stallMs / 1000)} s); the render was stopped.`);
  const encoderStalled = () => new EngineError('encode_failed', `The video encoder (ffmpeg) stopped responding (nothing for ${Math.round(stallMs / 1000)} s); the render was stopped.`);
  let progress = 0;
  const report = (p: number) => {
    if (p > progress) {
      progress = Math.min(1, p);
      task.onProgress(progress);
    }
  };

  const tmpVideo = join(workDir, '.video.part.mp4');
  let encoder: Encoder | null = null;
  let timeline: Timeline | null = null;
  // With music the sound is mixed here (mix/): stereo at the mix's rate; without, the narration goes out as spoken.
  const music = task.music ? MusicMix.of(task.music, signal, musicCache) : null;
  try {
    for (const v of new Set(voices)) await speech.prepare(v, signal); // a neural voice's pack: downloaded and loaded first
    const t0 = performance.now();
    const pool = new FramePool();
    const fullFrames = !!encode.fullFrames;
    // While the first sentence is spoken: the encoder starts (its process and x264's set-up) and
    // the first scene is laid out and cut, so the first frame goes out as soon as the first words are timed.
    const tl = (timeline = new Timeline({ task, speech, pool, fullFrames, signal }, voices));
    const W = tl.width;
    const H = tl.height;
    const audioFormat = music ? { rate: MIX_SAMPLE_RATE, channels: 2 as const } : undefined;
    const enc = (encoder = new Encoder({ width: W, height: H, fullFrames, ...(audioFormat ? { audio: audioFormat } : {}) }, tmpVideo, encode, signal, (b) => pool.release(b), (b) => pool.hold(b)));
    await Promise.all([tl.prime(), music?.prepare()]);
    if (signal.aborted) throw canceled();
    // Audio goes out from the first frame on: levelling the first sentence before it would keep
    // x264 waiting, and ffmpeg reads its two inputs on threads of their own.
    const unsent: AudioPiece[] = [];
    let audioFlows = false;
    const write = (samples: Int16Array) => enc.audio.write(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
    const pieceAudio = (piece: AudioPiece): Int16Array | number => {
      if ('silence' in piece) return piece.silence;
      const c = piece.chunk;
      if (c.sampleRate !== SPEECH_SAMPLE_RATE) throw new EngineError('speech_failed', `Speech came at ${c.sampleRate} Hz instead of ${SPEECH_SAMPLE_RATE} Hz.`);
      return c.audio();
    };
    const flushAudio = async () => {
      const pieces = unsent.splice(0);
      const done = tl.done;
      if (music) {
        for (const piece of pieces) music.push(pieceAudio(piece));
        for (const mixed of await music.mix(done)) write(mixed);
      } else {
        for (const piece of pieces) {
          const a = pieceAudio(piece);
          if (typeof a === 'number') enc.audio.write(Buffer.alloc(a * 2));
          else write(a);
        }
      }
      if (done) enc.audio.end();
    };
    // One flush at a time, in order (a mix waits for the music's decoder).
    let audioChain: Promise<void> = Promise.resolve();
    const sendAudio = () => (audioChain = audioChain.then(flushAudio));
    const speakMore = async () => {
      unsent.push(...(await within(tl.speakMore(), speechStalled)));
      if (audioFlows) await within(sendAudio(), speechStalled);
    };
    await speakMore();
    const speechSeconds = (performance.now() - t0) / 1000;
    report(0.02);
    if (signal.aborted) throw canceled();

    let tDraw = 0;
    let tWait = 0;
    let frames = 1;
    for (let f = 0; ; f++) {
      if (signal.aborted) break;
      const t = f / OUTPUT_FPS;
      // The next narration (normally spoken long ago) before the frames reach it.
      while (!tl.done && t + AUDIO_LEAD >= tl.spokenUntil) await speakMore();
      frames = Math.max(1, Math.ceil(tl.duration * OUTPUT_FPS));
      if (f >= frames) break;
      let t1 = performance.now();
      const out = tl.frame(t);
      const buf = out instanceof Promise ? await out : out;
      tDraw += performance.now() - t1;
      const wantsPause = !enc.send(buf, f);
      if (!audioFlows) {
        audioFlows = true;
        await sendAudio();
      }
      if (wantsPause) {
        t1 = performance.now();
        // A failed write (EPIPE: ffmpeg has exited) is ffmpeg's failure: its exit says why.
        const drained = once(enc.stdin, 'drain').then(() => null, () => enc.failed);
        const r = await within(Promise.race([drained, enc.failed]), encoderStalled);
        tWait += performance.now() - t1;
        if (r) break;
      }
      // Progress by frames of the narration known so far (the rest is at most a few seconds).
      if (f % 15 === 0) report(0.02 + 0.93 * (f / frames));
      tl.afterFrame(t, f);
      // Node frees the canvas's pixel read-backs (N-API finalizers) only when its event loop
      // turns; without this a long render would hold every frame's read-back until the end.
      if (f % 8 === 7) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    tl.finishThumbnail(tl.duration);
    await audioChain;
    enc.end(frames);
    await within(enc.run.done, encoderStalled);
    report(0.96);
    const duration = tl.duration;
    if (task.params.captions !== 'none') {
      const { pages, words, ends } = tl.captions();
      await writeFile(join(workDir, 'captions.vtt'), toWebVtt(pages, words, duration, ends));
    }
    await writeFile(join(workDir, 'thumbnail.jpg'), await tl.thumbnail());
    await rename(tmpVideo, join(workDir, 'video.mp4'));
    report(1);
    return {
      durationSeconds: Math.round(duration * 1000) / 1000, width: W, height: H,
      stats: { frames, speechSeconds, drawSeconds: tDraw / 1000, waitSeconds: tWait / 1000, sentPixelsPerFrame: (W * H * enc.sent) / frames },
    };
  } catch (err) {
    encoder?.run.proc.kill('SIGKILL');
    // Killed just above: wait until it is gone; its exit is the kill, `err` is what happened.
    if (encoder) await Promise.allSettled([encoder.run.done]);
    await rm(tmpVideo, { force: true });
    if (task.signal.aborted) throw canceled();
    if (err instanceof EngineError) throw err;
    throw writeError(err) ?? new EngineError('internal_error', `The render failed unexpectedly: ${(err as Error).message ?? String(err)}`);
  } finally {
    music?.close();
    timeline?.close();
    task.signal.removeEventListener('abort', onCancel);
  }
}
