// A job without a name is titled by its script's first words: as the video speaks and shows
// them, not with the Markdown marks of a pasted script.
import { describe, expect, it } from 'vitest';
import { scriptExcerpt } from '../lib/excerpt.js';

describe('a job title from its script', () => {
  it('drops Markdown marks and line-end marks, keeps emoji and signs, and is cut with an ellipsis', () => {
    const pasted = '## Launch day 🎉\nThree things changed\n- **Faster** renders\n- Better captions';
    expect(scriptExcerpt(pasted, 200)).toBe('Launch day 🎉 Three things changed Faster renders Better captions');
    expect(scriptExcerpt(pasted, 30)).toBe('Launch day 🎉 Three things cha…');
    expect(scriptExcerpt('Profit < cost — and 3 * 4 = 12.', 200)).toBe('Profit < cost — and 3 × 4 = 12.');
  });
});
