// Estimated spoken duration: the voice's own rate when the catalog has one, else a per-language default.
import { describe, expect, it } from 'vitest';
import type { Voice } from '../../shared/contract/index.js';
import { DEFAULT_WPM_BY_LANGUAGE, estimateSeconds, formatDuration, wordsPerMinute } from '../lib/speech.js';

const voice = (locale: string, extra: object = {}): Voice => ({ id: `${locale}-X`, name: 'X', locale, gender: 'female', engine: 'espeak', quality: 'basic', sampleUrl: '', ...extra });

describe('spoken duration', () => {
  it('uses the catalog rate, else the language default', () => {
    expect(wordsPerMinute(voice('en-US', { espeak: { rate: 120 } }))).toBe(120);
    expect(wordsPerMinute(voice('de-DE'))).toBe(DEFAULT_WPM_BY_LANGUAGE.de);
  });

  it('160 words at 160 wpm take about a minute', () => {
    const text = Array.from({ length: 160 }, () => 'word').join(' ');
    expect(estimateSeconds(text, voice('en-US'))).toBeCloseTo(60, 0);
    expect(formatDuration(estimateSeconds(text, voice('en-US')))).toBe('1:00');
    expect(estimateSeconds('   ', voice('en-US'))).toBe(0);
  });

  it('counts the pause after a heading or list item on its own line, as the voice makes it', () => {
    const list = 'Three things changed\n- Faster renders\n- Better captions';
    const flat = 'Three things changed Faster renders Better captions';
    expect(estimateSeconds(list, voice('en-US')) - estimateSeconds(flat, voice('en-US'))).toBeCloseTo(0.7, 2);
  });
});
