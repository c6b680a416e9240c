// A slide's text as narration: the rule that turns pdf.js text runs into sentences a voice reads,
// and the scenes a deck becomes.
import { describe, expect, it } from 'vitest';
import { AVATAR_RANGES, LIMITS } from '../../shared/contract/index.js';
import { pageLines, pageNarration, pagesToImport, SLIDE_PRESENTER, slideScenes, type PageTextItem } from '../lib/pdf-import.js';

/** Text runs as pdf.js gives them: each line ends with `hasEOL`. */
const lines = (...ls: string[]): PageTextItem[] => ls.map((str) => ({ str, hasEOL: true }));

describe('page narration', () => {
  it('ends a title and each bullet as a sentence, without the bullet marks', () => {
    expect(pageNarration(lines('Quarterly results', '• Revenue up 12%', '• Two new markets', '– Churn halved'))).toBe(
      'Quarterly results. Revenue up 12%. Two new markets. Churn halved.',
    );
  });

  it('joins a sentence wrapped over lines, and mends a word hyphenated at a line end', () => {
    expect(pageNarration(lines('Our team grew from four people', 'to twelve this year, and the onboar-', 'ding now takes a week.'))).toBe(
      'Our team grew from four people to twelve this year, and the onboarding now takes a week.',
    );
  });

  it('keeps punctuation that is there and numbered steps without their numbers', () => {
    expect(pageNarration(lines('Why now?', '1. Costs fell.', '2) Demand grew'))).toBe('Why now? Costs fell. Demand grew.');
  });

  it('drops page numbers and lines with nothing to say', () => {
    expect(pageNarration(lines('Agenda', '—', 'Page 3 of 12', '3', 'Welcome'))).toBe('Agenda. Welcome.');
  });

  it('starts a new line where the text moves down, even without an end-of-line mark', () => {
    const items: PageTextItem[] = [
      { str: 'Roadmap', transform: [1, 0, 0, 1, 72, 500] },
      { str: 'Ship the beta', transform: [1, 0, 0, 1, 72, 460] },
      { str: ' in May', transform: [1, 0, 0, 1, 160, 460] },
      {}, // marked content: no text
    ];
    expect(pageLines(items)).toEqual(['Roadmap', 'Ship the beta in May']);
    expect(pageNarration(items)).toBe('Roadmap. Ship the beta in May.');
  });

  it('is empty for a page without text (a picture slide)', () => {
    expect(pageNarration([])).toBe('');
    expect(pageNarration(lines('  ', '12'))).toBe('');
  });

  it('is trimmed to one scene’s limit at a sentence end', () => {
    const sentence = 'This sentence is exactly fifty characters long ok. ';
    const text = pageNarration(lines(sentence.repeat(150)));
    expect(text.length).toBeLessThanOrEqual(LIMITS.textMaxChars);
    expect(text.endsWith('ok.')).toBe(true);
    const words = pageNarration(lines('word '.repeat(2000)), 100);
    expect(words.length).toBeLessThanOrEqual(100);
    expect(words.endsWith('word…')).toBe(true);
  });
});

describe('slide scenes', () => {
  it('makes a scene per page: the page contained as background, its text, the presenter small in a corner', () => {
    const scenes = slideScenes('ast_1', ['Intro.', '']);
    expect(scenes.map((s) => [s.text, s.background])).toEqual([
      ['Intro.', { assetId: 'ast_1', page: 1, fit: 'contain' }],
      ['', { assetId: 'ast_1', page: 2, fit: 'contain' }],
    ]);
    expect(new Set(scenes.map((s) => s.id)).size).toBe(2);
    for (const s of scenes) expect(s).toMatchObject({ presenter: true, avatar: SLIDE_PRESENTER });
    expect(SLIDE_PRESENTER.scale).toBeLessThan(AVATAR_RANGES.scale.max / 3);
    expect(SLIDE_PRESENTER.x).toBeGreaterThan(0.5);
    expect(SLIDE_PRESENTER.y).toBeGreaterThan(0.5);
  });

  it('imports only the pages that still fit in one video', () => {
    expect(pagesToImport({ pages: 12 }, 1, true)).toBe(12);
    expect(pagesToImport({ pages: 80 }, 1, true)).toBe(LIMITS.scenesMax);
    expect(pagesToImport({ pages: 80 }, 10, false)).toBe(LIMITS.scenesMax - 10);
    expect(pagesToImport({ pages: 3 }, LIMITS.scenesMax, false)).toBe(0);
  });
});
