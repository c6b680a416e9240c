// Speech engines behind one interface: every engine speaks every locale it claims with timings
// inside its audio; alignment to espeak is accurate on audio of known timing; neural packs are
// downloaded (progress, size and SHA-256 checked), cached and used offline.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpeechTimeline } from '../../../shared/scene/index.js';
import { detectLanguage, scriptWarnings, unreadableScript } from '../../../shared/language/detect.js';
import { ffmpegPath } from '../encode/ffmpeg.js';
import { SpeechSynth, SPEECH_SAMPLE_RATE } from '../speech/speech.js';
import { alignTimeline } from '../speech/speech-align.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { phonemeIds, PiperSpeaker } from '../speech/speech-piper.js';
import { VoicePacks } from '../speech/voice-packs.js';
import { sampleLine } from '../speech/voice-sample.js';
import { catalogVoices, engineVoice, VoiceFile, type EngineVoice } from '../speech/voices.js';
import { servePiperPack, tinyPiperConfig, tinyPiperModel } from './tiny-onnx.js';

const LINES: Record<string, string> = {
  en: 'Good morning, and welcome to the weekly update.',
  de: 'Guten Morgen und willkommen zum wöchentlichen Update.',
  fr: 'Bonjour et bienvenue dans la mise à jour de la semaine.',
  es: 'Buenos días y bienvenidos a la actualización semanal.',
  it: 'Buongiorno e benvenuti all’aggiornamento settimanale.',
  pt: 'Bom dia e bem-vindos à atualização semanal.',
  nl: 'Goedemorgen en welkom bij de wekelijkse update.',
  pl: 'Dzień dobry i witamy w cotygodniowej aktualizacji.',
  ja: 'おはようございます、週刊ニュースへようこそ。',
  zh: '早上好，欢迎收看每周新闻。',
  ar: 'صباح الخير، ومرحبا بكم في النشرة الأسبوعية.',
};
const line = (v: EngineVoice) => LINES[v.locale.slice(0, 2)]!;

function rms(samples: Int16Array): number {
  let s = 0;
  for (const x of samples) s += x * x;
  return Math.sqrt(s / samples.length);
}

function expectSoundTimeline(sp: { samples: Int16Array; sampleRate: number; timeline: SpeechTimeline }, words: number) {
  const duration = sp.samples.length / sp.sampleRate;
  expect(sp.sampleRate).toBe(SPEECH_SAMPLE_RATE);
  expect(duration).toBeGreaterThan(0.8);
  expect(rms(sp.samples)).toBeGreaterThan(500); // speech, not silence
  expect(sp.timeline.durationSeconds).toBeCloseTo(duration, 3);
  expect(sp.timeline.words.length).toBe(words);
  let last = 0;
  for (const w of [...sp.timeline.words, ...sp.timeline.phonemes]) expect(w.end).toBeGreaterThanOrEqual(w.start);
  for (const w of sp.timeline.words) {
    expect(w.start).toBeGreaterThanOrEqual(last);
    expect(w.end).toBeLessThanOrEqual(duration);
    last = w.start;
  }
  // The words spread over the audio, not bunched at one end (a script without spaces is one word here).
  if (words > 1) expect(sp.timeline.words.at(-1)!.start).toBeGreaterThan(duration * 0.3);
}

describe('the voice catalog', () => {
  const voices = catalogVoices();
  it('is valid and has ≥ 24 voices in ≥ 8 locales, each with an engine and a quality tier', () => {
    expect(voices.length).toBeGreaterThanOrEqual(24);
    const locales = new Set(voices.map((v) => v.locale));
    expect(locales.size).toBeGreaterThanOrEqual(8);
    for (const l of ['it-IT', 'pt-BR', 'nl-NL', 'pl-PL']) expect(locales).toContain(l);
    expect(locales.has('ja-JP') || locales.has('zh-CN')).toBe(true);
    expect(new Set(voices.map((v) => v.engine))).toEqual(new Set(['espeak', 'pico', 'flite', 'piper', 'kokoro']));
  });
  it('has male English voices above the Basic tier that ship with the app, an Arabic voice, and Kokoro packs', () => {
    const shippedMale = voices.filter((v) => v.locale.startsWith('en-') && v.gender === 'male' && v.quality !== 'basic' && !v.piper && !v.kokoro);
    expect(shippedMale.map((v) => v.engine)).toEqual(['flite', 'flite']);
    expect(voices.some((v) => v.locale.startsWith('ar-'))).toBe(true);
    const kokoro = voices.filter((v) => v.engine === 'kokoro');
    expect(kokoro.length).toBeGreaterThanOrEqual(4);
    const model = kokoro[0]!.kokoro!.files.find((f) => f.name === 'model.onnx')!;
    for (const v of kokoro) {
      // One model for every Kokoro voice (downloaded once), each with its own style vectors.
      expect(v.kokoro!.files.find((f) => f.name === 'model.onnx'), v.id).toEqual(model);
      expect(v.kokoro!.files.find((f) => f.name === 'voice.bin')!.bytes, v.id).toBe(510 * 256 * 4);
      for (const f of v.kokoro!.files) expect(f.url, v.id).toMatch(/^https:\/\/huggingface\.co\/onnx-community\/Kokoro-82M-v1\.0-ONNX\/resolve\/[0-9a-f]{40}\//);
      expect(v.quality).toBe('natural');
    }
  });
  it('pins every neural pack to fixed files and states its terms', () => {
    const packs = voices.filter((v) => v.engine === 'piper');
    expect(packs.length).toBeGreaterThanOrEqual(5);
    for (const v of packs) {
      const [model, config] = ['model.onnx', 'config.json'].map((n) => v.piper!.files.find((f) => f.name === n)!);
      // A commit, not a branch or a tag that moves (a changed file would then fail its SHA-256 on every machine).
      expect(model!.url, v.id).toMatch(/^https:\/\/huggingface\.co\/rhasspy\/piper-voices\/resolve\/[0-9a-f]{40}\/.+\.onnx$/);
      expect(config!.url, v.id).toBe(`${model!.url}.json`);
      expect(model!.bytes, v.id).toBeGreaterThan(20e6);
      expect(v.piper!.licence, v.id).toMatch(/\w{3}/);
    }
  });
  it('gives every voice a sample line in its own language (a German voice read the English one)', () => {
    for (const v of voices) {
      const line = sampleLine(v);
      expect(detectLanguage(line)?.language, `${v.id}: ${line}`).toBe(v.locale.split('-')[0]);
      if (/^(en|de|fr|es|it|pt|nl|pl)-/.test(v.locale)) expect(line).toContain(v.name);
      // Nothing the voice cannot read, nothing to warn about.
      expect(unreadableScript(line, v), v.id).toBeNull();
      expect(scriptWarnings(line, v), v.id).toEqual([]);
    }
  });
  it('refuses a catalog with a voice missing its engine block or a duplicate id', () => {
    const base = { id: 'en-US-X', numericId: '1', name: 'X', locale: 'en-US', gender: 'female', quality: 'standard', espeak: { voice: 'en-us', pitch: 50, rate: 160 } };
    expect(VoiceFile.safeParse({ voices: [{ ...base, engine: 'pico' }] }).success).toBe(false);
    expect(VoiceFile.safeParse({ voices: [{ ...base, engine: 'espeak' }, { ...base, id: 'en-US-Y', engine: 'espeak' }] }).success).toBe(false);
    expect(VoiceFile.safeParse({ voices: [{ ...base, engine: 'espeak' }] }).success).toBe(true);
  });
});

describe('each engine speaks every locale it claims', () => {
  const espeak = new SpeechSynth(Infinity);
  const engines = new SpeechEngines(espeak);
  afterAll(() => engines.close());
  const voices = catalogVoices();
  const perLocale = (engine: string) => [...new Map(voices.filter((v) => v.engine === engine).map((v) => [v.locale, v])).values()];

  it.each(perLocale('espeak').map((v) => [v.locale, v] as const))('espeak-ng: %s', async (_l, v) => {
    const sp = await engines.speak(line(v), v);
    expectSoundTimeline(sp, line(v).split(/\s+/u).length);
  });
  it('espeak-ng has the voice and variant of every catalog voice (its own, or its timing reference)', async () => {
    for (const v of voices) await expect(espeak.ipa('Hello', v.espeak), v.id).resolves.toMatch(/\S/u);
  });
  it.each(perLocale('pico').map((v) => [v.locale, v] as const))('SVOX Pico: %s, timed by alignment to espeak', async (_l, v) => {
    const sp = await engines.speak(line(v), v);
    expectSoundTimeline(sp, line(v).split(/\s+/u).length);
  });
  it.each(voices.filter((v) => v.engine === 'flite').map((v) => [v.id, v] as const))('Flite: %s, timed by alignment to espeak', async (_l, v) => {
    const sp = await engines.speak(line(v), v);
    expectSoundTimeline(sp, line(v).split(/\s+/u).length);
  });
});

describe('alignment to espeak (DTW over MFCC)', () => {
  it('finds the words of espeak audio slowed down by a known factor within 40 ms (median)', async () => {
    const espeak = new SpeechSynth();
    try {
      const text = 'Our team tested every template in every aspect ratio, from wide screens to tall phone videos. Thank you for watching, and see you next week.';
      const spoken = await espeak.synthesize(text, engineVoice('en-US-Ava')!.espeak);
      // Slowed to 1/1.25 of its pace by ffmpeg (pitch kept): every time × 1.25.
      const factor = 1.25;
      const dir = mkdtempSync(join(tmpdir(), 'align-'));
      writeFileSync(join(dir, 'in.raw'), spoken.samples);
      execFileSync(ffmpegPath(), ['-v', 'error', '-f', 's16le', '-ar', String(SPEECH_SAMPLE_RATE), '-ac', '1', '-i', join(dir, 'in.raw'), '-af', `atempo=${1 / factor}`, '-f', 's16le', join(dir, 'out.raw')]);
      const stretched = new Int16Array(execFileSync('cat', [join(dir, 'out.raw')]).buffer.slice(0));
      rmSync(dir, { recursive: true, force: true });
      // The reference is another espeak voice (male, other pitch and pace), as for a Pico voice.
      const reference = await espeak.synthesize(text, engineVoice('en-US-Andrew')!.espeak);
      const tl = alignTimeline(reference, { samples: stretched, sampleRate: SPEECH_SAMPLE_RATE });
      const errors = tl.words.map((w, i) => Math.abs(w.start - spoken.timeline.words[i]!.start * factor)).sort((a, b) => a - b);
      const median = errors[Math.floor(errors.length / 2)]!;
      expect(tl.words.length).toBe(spoken.timeline.words.length);
      expect(median).toBeLessThanOrEqual(0.04);
      // Unaligned (the reference's own times) would be far off: the test can fail.
      const naive = reference.timeline.words.map((w, i) => Math.abs(w.start - spoken.timeline.words[i]!.start * factor)).sort((a, b) => a - b);
      expect(naive[Math.floor(naive.length / 2)]!).toBeGreaterThan(0.1);
    } finally {
      await espeak.close();
    }
  });
});

describe('neural voice packs (Piper on onnxruntime-node)', () => {
  const model = tinyPiperModel();
  const config = tinyPiperConfig();
  let pack: Awaited<ReturnType<typeof servePiperPack>>;
  const root = mkdtempSync(join(tmpdir(), 'packs-'));
  beforeAll(async () => {
    pack = await servePiperPack();
  });
  afterAll(() => {
    pack.close();
    rmSync(root, { recursive: true, force: true });
  });
  const voice = () => pack.voice('en-US-Tiny', '9001', 'Tiny');

  it('gives the model the end of each clause as written, as the phonemizer of Piper does ("?" gives a question its tone)', () => {
    const map: Record<string, number[]> = { '^': [1], $: [2], _: [0], ' ': [3], ',': [4], '.': [5], '?': [6], '!': [7], a: [10], b: [11] };
    const ids = (ipa: string, text: string) => phonemeIds(ipa, map, text).filter((x) => x !== 0);
    expect(ids('a\nb\n', 'Hello, how are you?')).toEqual([1, 10, 4, 3, 11, 6, 2]);
    expect(ids('a\nb\na\n', 'Hi! Who? Fine.')).toEqual([1, 10, 7, 3, 11, 6, 3, 10, 5, 2]);
    // Clauses espeak split otherwise than the text's punctuation: "," between, "." at the end.
    expect(ids('a\nb\n', 'Mr Smith arrived?')).toEqual([1, 10, 4, 3, 11, 5, 2]);
  });

  it('refuses a download whose bytes do not match the SHA-256 and keeps nothing of it', async () => {
    pack.corrupt = true;
    const packs = new VoicePacks(join(root, 'bad'));
    await expect(packs.ensure(voice())).rejects.toThrow(/model\.onnx does not match its SHA-256/);
    expect(await packs.status(voice())).toMatchObject({ state: 'failed', error: expect.stringMatching(/SHA-256/) });
    expect(readdirSync(join(root, 'bad'), { recursive: true }).filter((f) => String(f).includes('.'))).toEqual([]);
    pack.corrupt = false;
  });

  it('says what to do when the host of a voice cannot be reached (no connection), and can be retried', async () => {
    const v = voice();
    // A port nothing listens on any more: the connection is refused, as with no network.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    const unreachable = { ...v, piper: { ...v.piper!, files: v.piper!.files.map((f) => ({ ...f, url: `http://127.0.0.1:${port}/${f.name}` })) } };
    const packs = new VoicePacks(join(root, 'offline'));
    await expect(packs.ensure(unreachable)).rejects.toThrow(/could not be downloaded from 127\.0\.0\.1:\d+: check the internet connection, then retry \(.*ECONNREFUSED/);
    expect(await packs.status(unreachable)).toMatchObject({ state: 'failed', error: expect.stringMatching(/check the internet connection/) });
    await packs.ensure(v);
    expect(await packs.status(v)).toMatchObject({ state: 'installed' });
  });

  it('downloads with growing progress, speaks with timings, and works offline from the cache afterwards', async () => {
    pack.requests.length = 0;
    const packs = new VoicePacks(join(root, 'good'));
    const v = voice();
    expect(await packs.status(v)).toMatchObject({ state: 'missing', receivedBytes: 0, totalBytes: model.length + config.length });
    const seen: number[] = [];
    const started = await packs.install(v);
    expect(started.state).toBe('downloading');
    for (;;) {
      const s = await packs.status(v);
      if (s.state !== 'downloading') break;
      seen.push(s.receivedBytes!);
      await new Promise((r) => setImmediate(r));
    }
    expect(await packs.status(v)).toMatchObject({ state: 'installed', receivedBytes: model.length + config.length });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(pack.requests).toEqual(['/model.onnx', '/config.json']);

    const espeak = new SpeechSynth();
    const piper = new PiperSpeaker(packs, espeak);
    const engines = new SpeechEngines(espeak, { piper });
    try {
      const text = 'Good morning, and welcome to the weekly update.';
      const sp = await engines.speak(text, v);
      expectSoundTimeline(sp, 8);
      expect(piper.stats.modelSeconds).toBeGreaterThan(0);
    } finally {
      await engines.close();
    }

    // A new studio (fresh process state) with the same cache and the server gone: no request, still speaks.
    pack.requests.length = 0;
    const offline = new VoicePacks(join(root, 'good'));
    expect(await offline.status(v)).toMatchObject({ state: 'installed' });
    const espeak2 = new SpeechSynth();
    const engines2 = new SpeechEngines(espeak2, { piper: new PiperSpeaker(offline, espeak2) });
    try {
      const sp = await engines2.speak('Thank you for watching, and see you next week.', { ...v, piper: { ...v.piper!, files: v.piper!.files.map((f) => ({ ...f, url: 'http://127.0.0.1:9/gone' })) } });
      expectSoundTimeline(sp, 9);
      expect(pack.requests).toEqual([]);
    } finally {
      await engines2.close();
    }
  });
});
