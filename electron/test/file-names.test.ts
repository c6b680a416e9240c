// Point 7 of issue 12: download names from the job's title (or first words) and date, safe on
// every OS (no separators or reserved characters, no reserved device names, no trailing dot).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { excerptOf } from '../../shared/contract/index.js';
import { downloadFileName } from '../services/file-names.js';

const job = (title: string | null, text = 'Welcome to the quarterly update.') => ({ id: 'job_01JD3W6Y5N8Q2R7T4V9X0Z1ABC', title, text, createdAt: '2026-11-23T09:30:00.000Z' });

describe('point 7: download file names', () => {
  it('names the file from the title and the date', () => {
    expect(downloadFileName(job('Quarterly update'), 'video')).toBe('Quarterly update – 2026-11-23.mp4');
    expect(downloadFileName(job('Quarterly update'), 'captions')).toBe('Quarterly update – 2026-11-23.vtt');
    expect(downloadFileName(job(null), 'thumbnail')).toBe('Welcome to the quarterly update – 2026-11-23.jpg');
    expect(downloadFileName(job(null, '  !!!  '), 'video')).toBe('!!! – 2026-11-23.mp4');
    expect(downloadFileName(job('???', '///'), 'video')).toBe('job_01JD3W6Y5N8Q2R7T4V9X0Z1ABC – 2026-11-23.mp4');
  });

  it('is safe on every OS', () => {
    expect(downloadFileName(job('a/b\\c:d*e?f"g<h>i|j'), 'video')).toBe('a b c d e f g h i j – 2026-11-23.mp4');
    expect(downloadFileName(job('CON'), 'video')).toBe('CON video – 2026-11-23.mp4');
    expect(downloadFileName(job('..'), 'video')).toBe('Welcome to the quarterly update – 2026-11-23.mp4');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (title, text) => {
        const name = downloadFileName(job(title || null, text), 'video');
        expect(name).not.toMatch(/[\\/:*?"<>|\p{Cc}]/u);
        expect(name.endsWith('.mp4')).toBe(true);
        expect([...name].length).toBeLessThan(130);
        expect(name).not.toMatch(/^[. ]/);
      }),
    );
  });

  it('cuts long names between words', () => {
    expect(excerptOf('Our brand new presenter studio makes explainer videos quickly', 60, '')).toBe('Our brand new presenter studio makes explainer videos');
    expect(excerptOf('short', 60, '')).toBe('short');
    // The same rule with its mark: lists and titles; the mark counts toward the length.
    expect(excerptOf('Hello team,   our numbers are up this quarter', 20)).toBe('Hello team, our…');
    expect([...excerptOf('x'.repeat(300), 120)].length).toBe(120);
  });
});
