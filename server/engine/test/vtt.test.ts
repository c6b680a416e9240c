// WebVTT as a spec parser reads it: word-timed cues (one timestamp per word), text escaped so a
// script can neither open a tag nor end a cue's timing line, every script's words kept.
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { captionWords, computeLayout, measureWith, paginateCaptions, type TimedWord } from '../../../shared/scene/index.js';
import { registerFonts } from '../frames/assets.js';
import { toWebVtt } from '../encode/vtt.js';
import { parseVttWords } from './vtt-words.js';

/** Caption words and pages as the engine makes them, words timed 0.3 s apart (some in one breath). */
function captions(text: string, template = 'newsroom') {
  registerFonts();
  const layout = computeLayout(template, { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.4 } }, { width: 1280, height: 720 });
  const spoken: TimedWord[] = text.split(/\s+/).map((w, i) => ({ text: w, start: 0.5 + 0.3 * i - (i % 5 === 4 ? 0.3 : 0), end: 0.8 + 0.3 * i }));
  const words = captionWords(spoken);
  const pages = paginateCaptions(layout, words, measureWith(createCanvas(8, 8).getContext('2d'), layout));
  const duration = spoken.at(-1)!.end + 0.4;
  return { words, pages, duration, vtt: toWebVtt(pages, words, duration) };
}

describe('WebVTT captions', () => {
  it('carry one timestamp per word, at the time the word is spoken, and parse without errors', () => {
    const text = 'Good evening and welcome. Tonight we make a video in seconds, with captions that follow every single word you write. Done!';
    const { words, vtt } = captions(text);
    const parsed = parseVttWords(vtt);
    expect(parsed.errors).toEqual([]);
    const got = parsed.cues.flatMap((c) => c.words);
    expect(got.map((w) => w.text)).toEqual(text.split(' '));
    // Every word but each cue's first has its own inline timestamp; the first starts with the cue.
    for (const c of parsed.cues) expect(c.words.map((w) => w.stamped)).toEqual(c.words.map((_, i) => i > 0));
    expect(parsed.cues.length).toBeGreaterThan(1);
    // Times: the word's own start, to the millisecond (a word said in one breath with the one
    // before it — same start — comes a millisecond later, since inline timestamps must grow).
    got.forEach((w, i) => expect(Math.abs(w.start - words[i]!.start)).toBeLessThanOrEqual(0.0015));
    expect(vtt).toMatch(/<00:00:00\.800>evening/);
  });

  it('escape &, < and > so the script stays text, and never let a cue contain -->', () => {
    const text = 'Tom & Jerry <b>bold</b> a --> b <00:00:09.000> &amp; x<y>z.';
    const { vtt } = captions(text);
    const parsed = parseVttWords(vtt);
    expect(parsed.errors).toEqual([]);
    // The spec parser gives back exactly the script's words: no tag, no entity, no stray timestamp.
    expect(parsed.cues.flatMap((c) => c.words.map((w) => w.text))).toEqual(text.split(' '));
    expect(parsed.cues.flatMap((c) => c.words).filter((w) => w.stamped)).toHaveLength(text.split(' ').length - parsed.cues.length);
    const cueText = vtt.split('\n').filter((l) => !/^\d+$/.test(l) && !/^\d\d:\d\d:\d\d\.\d{3} --> /.test(l) && l !== 'WEBVTT');
    expect(cueText.join('\n')).not.toContain('-->');
    expect(vtt).toContain('Tom <00:00:00.800>&amp; <00:00:01.100>Jerry <00:00:01.400>&lt;b&gt;bold&lt;/b&gt;');
  });

  it('keep Chinese, Japanese, Arabic and emoji words, Chinese and Japanese without spaces', () => {
    const text = '今天天气很好，我们去公园散步吧。 مرحبا بكم 🎉 في الاستوديو. こんにちは、世界。';
    const { words, vtt } = captions(text);
    const parsed = parseVttWords(vtt);
    expect(parsed.errors).toEqual([]);
    // The CJK sentence became several caption words, each with its own time.
    expect(words.length).toBeGreaterThan(text.split(' ').length + 4);
    expect(parsed.cues.flatMap((c) => c.words).map((w) => w.text)).toEqual(words.map((w) => w.text));
    expect(vtt).toContain('今天<');
    expect(vtt).not.toMatch(/今天 /);
    expect(vtt).toContain('🎉');
  });
});
