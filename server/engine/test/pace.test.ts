// The script editor's length estimate against the narration the engine renders (synthesis
// only, no video): within 15 % for English, German, Japanese and Chinese paragraphs the voices
// were not measured on, in each engine that ships. Japanese kanji are read as words.
import { afterAll, describe, expect, it } from 'vitest';
import { estimateSpeechSeconds } from '../../../shared/language/pace.js';
import { loadCatalog } from '../../catalog.js';
import { Narration } from '../speech/narration.js';
import { SpeechSynth } from '../speech/speech.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import type { EngineVoice } from '../speech/voices.js';

const PARAGRAPHS: Record<string, string> = {
  en: 'Our support team answered more questions than ever this spring. Most of them were about exports, so we rewrote the guide. It now fits on one page, and it has pictures.',
  de: 'Unser Support hat in diesem Frühjahr mehr Fragen beantwortet als je zuvor. Die meisten betrafen den Export, also haben wir die Anleitung neu geschrieben. Sie passt jetzt auf eine Seite.',
  ja: '今年の春、サポートチームはこれまでで一番多くの質問に答えました。ほとんどは書き出しについての質問でした。そこで説明書を書き直しました。',
  zh: '今年春天，我们的客服团队回答的问题比以往任何时候都多。大多数问题是关于导出的，所以我们重写了使用指南。现在它只有一页。',
};

const catalog = loadCatalog();
const espeak = new SpeechSynth();
const engines = new SpeechEngines(espeak);
afterAll(() => engines.close());

async function narrationSeconds(text: string, voice: EngineVoice): Promise<{ seconds: number; words: string[] }> {
  const n = new Narration(engines, text, voice, new AbortController().signal);
  while (await n.next());
  return { seconds: n.timeline.durationSeconds, words: n.timeline.words.map((w) => w.text) };
}

describe('length estimate', () => {
  it.each([
    ['en', 'en-US-Ava'], ['en', 'en-US-Lisa'], ['en', 'en-US-Richard'], ['en', 'en-GB-Alan'],
    ['de', 'de-DE-Katja'], ['de', 'de-DE-Gabi'], ['ja', 'ja-JP-Nanami'], ['zh', 'zh-CN-Xiaoxiao'],
  ] as const)('is within 15 percent of the narration for %s (%s)', async (language, voiceId) => {
    const text = PARAGRAPHS[language]!;
    const { seconds } = await narrationSeconds(text, engines.voice(voiceId));
    const estimate = estimateSpeechSeconds(text, catalog.voice(voiceId)!);
    expect(Math.abs(estimate - seconds) / seconds, `estimate ${estimate.toFixed(2)} s, narration ${seconds.toFixed(2)} s`).toBeLessThanOrEqual(0.15);
  });
});

describe('Japanese in kanji', () => {
  it('is read as words: about as long as the same sentences in kana, and the captions keep the kanji', async () => {
    const kanji = '今日は新しい製品を紹介します。私たちの会社は東京にあります。';
    const kana = 'きょうは あたらしい せいひんを しょうかいします。わたしたちの かいしゃは とうきょうに あります。';
    const voice = engines.voice('ja-JP-Keita');
    const [a, b] = [await narrationSeconds(kanji, voice), await narrationSeconds(kana, voice)];
    // Read as "Chinese letter" each, the kanji took several times as long.
    expect(a.seconds / b.seconds).toBeGreaterThan(0.8);
    expect(a.seconds / b.seconds).toBeLessThan(1.25);
    expect(a.words.join('')).toBe(kanji);
  });
});
