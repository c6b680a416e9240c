// Estimated spoken duration: the voice's measured pace when the catalog has one, else its language's.
import { describe, expect, it } from 'vitest';
import type { Voice } from '../../shared/contract/index.js';
import { DEFAULT_PACE } from '../../shared/language/pace.js';
import { estimateSeconds, formatDuration, paceLabel } from '../lib/speech.js';

const voice = (locale: string, extra: object = {}): Voice => ({ id: `${locale}-X`, name: 'X', locale, gender: 'female', engine: 'espeak', quality: 'basic', sampleUrl: '', ...extra });

describe('spoken duration', () => {
  it('uses the voice\'s measured pace, else the language default', () => {
    const text = Array.from({ length: 120 }, () => 'word').join(' ') + '.';
    const measured = voice('en-US', { pace: { unitsPerSecond: 2, sentencePauseSeconds: 0 } });
    expect(estimateSeconds(text, measured)).toBeCloseTo(60, 5);
    expect(formatDuration(estimateSeconds(text, measured))).toBe('1:00');
    expect(paceLabel(measured)).toBe('2.0 words a second (measured)');
    const de = DEFAULT_PACE.de!;
    expect(estimateSeconds(text, voice('de-DE'))).toBeCloseTo(120 / de.unitsPerSecond + de.sentencePauseSeconds, 5);
    expect(estimateSeconds('   ', voice('en-US'))).toBe(0);
  });

  it('counts Chinese by syllable and Japanese by mora, not by spaced words', () => {
    const zh = voice('zh-CN', { pace: { unitsPerSecond: 4, sentencePauseSeconds: 0 } });
    expect(estimateSeconds('今天天气很好', zh)).toBeCloseTo(6 / 4, 5);
    const ja = voice('ja-JP', { pace: { unitsPerSecond: 6, sentencePauseSeconds: 0 } });
    // Kana are a mora each (a small ya joins the one before): "きょうは" is three.
    expect(estimateSeconds('きょうは', ja)).toBeCloseTo(3 / 6, 5);
    expect(paceLabel(ja)).toBe('6.0 morae a second (measured)');
  });

  it('counts the pause after a heading or list item on its own line, as the voice makes it', () => {
    const list = 'Three things changed\n- Faster renders\n- Better captions';
    const flat = 'Three things changed Faster renders Better captions';
    const en = voice('en-US', { pace: { unitsPerSecond: 3, sentencePauseSeconds: 0.35 } });
    expect(estimateSeconds(list, en) - estimateSeconds(flat, en)).toBeCloseTo(0.7, 2);
  });
});
