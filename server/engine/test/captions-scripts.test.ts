// Captions in every script the issue names: the bundled fonts (not the test machine's) cover
// each character, each glyph is drawn with ink and is no "missing glyph" box, right-to-left
// lines run from the right, and a rendered video shows Chinese, Arabic and emoji captions as
// the scene draws them (a reference drawing of the same frame).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  captionFont, captionTokens, captionWords, computeLayout, isCaptionWord, spokenScript, createAnimation, fontStack, SCENE_FONTS, SCRIPT_FAMILIES, styleOf, TEMPLATES, visualOrder,
  type SpeechTimeline,
} from '../../../shared/scene/index.js';
import { RESOURCES_DIR, registerFonts } from '../frames/assets.js';
import { createEngine, type RenderEngine } from '../index.js';
import { Narration } from '../speech/narration.js';
import { drawFullFrame, prepareScene } from '../frames/scene-frames.js';
import { SpeechSynth } from '../speech/speech.js';
import { SpeechEngines } from '../speech/speech-engines.js';
import { engineVoice } from '../speech/voices.js';
import { fontCodePoints } from './cmap.js';
import { decodeFrames, regionDiff } from './media.js';

const SAMPLES = {
  latin: 'Quarterly update: façade, naïve, Ærø, Łódź, Straße.',
  cyrillic: 'Привет, это ежеквартальный отчёт компании.',
  greek: 'Γειά σου, αυτή είναι η τριμηνιαία ενημέρωση.',
  arabic: 'مرحبا بكم في الاستوديو، هذا هو التحديث الفصلي.',
  hebrew: 'שלום לכולם, זה העדכון הרבעוני של החברה.',
  chinese: '今天天气很好，我们去公园散步吧。欢迎收看本期节目。',
  japanese: 'こんにちは、世界。私は東京に住んでいます。カタカナもあります。',
  korean: '안녕하세요 여러분, 분기별 업데이트입니다.',
  emoji: 'Launch day 🚀 🎉 👍 ❤️ 😀 🔥 ✅ 🌍 💡 📈',
};

/** Characters a caption must draw (not spaces, joiners or variation selectors). */
const IGNORED = new Set(['\u200d', '\ufe0f', '\ufe0e']);
const drawn = (s: string) => Array.from(s).filter((c) => !/\s/u.test(c) && !IGNORED.has(c));

beforeAll(() => registerFonts());

describe('bundled caption fonts', () => {
  const files = new Map<string, Set<number>>();
  const covers = (family: string, cp: number) =>
    SCENE_FONTS.filter((f) => f.family === family).some((f) => {
      if (!files.has(f.file)) files.set(f.file, fontCodePoints(join(RESOURCES_DIR, 'fonts', f.file)));
      return files.get(f.file)!.has(cp);
    });

  for (const [name, text] of Object.entries(SAMPLES)) {
    it(`cover every ${name} character in every caption style's font list`, () => {
      for (const style of TEMPLATES.map(styleOf)) {
        const stack = [SCRIPT_FAMILIES.emoji, SCRIPT_FAMILIES.arabic, SCRIPT_FAMILIES.hebrew, style.font.family, SCRIPT_FAMILIES.cjk];
        expect(fontStack(style.font.family)).toBe(stack.map((f) => `"${f}"`).join(', '));
        const missing = drawn(text).filter((c) => !stack.some((f) => covers(f, c.codePointAt(0)!)));
        expect(missing, `${style.font.family}`).toEqual([]);
      }
    });
  }

  it('leave Latin to DejaVu: the script fonts placed before it hold no ASCII', () => {
    for (const f of SCENE_FONTS.filter((x) => x.family.startsWith('PS '))) {
      const cps = fontCodePoints(join(RESOURCES_DIR, 'fonts', f.file));
      expect([...cps].filter((c) => c < 0x80 && c !== 0x20), f.file).toEqual([]);
    }
  });

  it('draw every caption glyph with ink, none as a missing-glyph box', () => {
    const c = createCanvas(96, 96);
    const ctx = c.getContext('2d');
    const ink = (ch: string, font: string) => {
      ctx.clearRect(0, 0, 96, 96);
      ctx.font = font;
      ctx.textBaseline = 'middle';
      ctx.fillStyle = '#000';
      ctx.fillText(ch, 16, 48);
      const d = ctx.getImageData(0, 0, 96, 96).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 96) n++;
      return { n, key: Buffer.from(d).toString('base64') };
    };
    for (const style of TEMPLATES.map(styleOf)) {
      const font = captionFont(style, 48);
      // A private-use character no font has: what a missing glyph looks like in this font list.
      const box = ink('\ue000', font).key;
      for (const [name, text] of Object.entries(SAMPLES)) {
        for (const ch of drawn(text).filter(isCaptionWord)) {
          const g = ink(ch, font);
          expect(g.n, `${name} ${ch} in ${font}`).toBeGreaterThan(8);
          expect(g.key === box, `${name} ${ch} drawn as a box in ${font}`).toBe(false);
        }
      }
    }
  });
});

describe('caption layout of scripts', () => {
  it('runs a right-to-left line from the right, keeping an embedded left-to-right run in order', () => {
    expect(visualOrder(['שלום', 'לכולם,', 'זה', 'מבחן.'])).toMatchObject({ order: [3, 2, 1, 0], rtl: true });
    expect(visualOrder(['مرحبا', 'Presenter', 'Studio', 'اليوم'])).toMatchObject({ order: [3, 1, 2, 0], rtl: true });
    expect(visualOrder(['Hello', 'שלום', 'עולם', 'again'])).toMatchObject({ order: [0, 2, 1, 3], rtl: false });
    // A number keeps to the word before it; an emoji between two directions takes the line's.
    expect(visualOrder(['זה', 'Studio', '2026', 'עכשיו'])).toMatchObject({ order: [3, 1, 2, 0], rtl: true });
    expect(visualOrder(['مرحبا', 'Presenter', '🎉', 'اليوم'])).toMatchObject({ order: [3, 2, 1, 0], rtl: true });
    expect(visualOrder(['Launch', 'day', '🎉', 'today'])).toMatchObject({ order: [0, 1, 2, 3], rtl: false });
  });

  it('splits Chinese and Japanese into words, with their time shared out and punctuation kept', () => {
    const words = captionWords([{ text: '今天天气很好，我们去公园散步吧。', start: 1, end: 3 }, { text: 'Hi', start: 3, end: 3.5 }]);
    expect(words.length).toBeGreaterThan(5);
    expect(words.map((w) => w.text).join('')).toBe('今天天气很好，我们去公园散步吧。Hi');
    expect(words.every((w) => !/^[，。]/u.test(w.text))).toBe(true);
    expect(words[0]!.start).toBe(1);
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBeGreaterThanOrEqual(words[i - 1]!.end - 1e-9);
  });
});

describe('a script pasted with Markdown marks', () => {
  it('is spoken and captioned without its emphasis, heading and bullet marks, keeping signs between words', () => {
    const pasted = '## Intro\n**Step 1:** Open the app.\n- Click *Render*, then _wait_.\n* Done: 3 * 4 is 12, snake_case stays, #1 too.';
    expect(spokenScript(pasted).split(/\s+/).filter(Boolean).join(' ')).toBe(
      // The heading, a line without punctuation, ends a sentence for the voice (a lone "." no caption shows).
      'Intro . Step 1: Open the app. Click Render, then wait. Done: 3 × 4 is 12, snake_case stays, #1 too.',
    );
    // The preview's caption list: the same tokens, a lone sign or dash left out as the video does.
    const tokens = captionTokens(pasted);
    expect(tokens.map((t) => t.text)).toEqual('Intro Step 1: Open the app. Click Render, then wait. Done: 3 × 4 is 12, snake_case stays, #1 too.'.split(' '));
    // The heading's end ends its caption page, as a sentence's does.
    expect(tokens.filter((t) => t.pageEnd).map((t) => t.text)).toEqual(['Intro']);
    // A multiplication is said and shown as one, also without spaces; a lone asterisk elsewhere stays.
    expect(spokenScript('2*3 and 4 * 5, a * b')).toBe('2×3 and 4 × 5, a * b');
    // A link is read as its text, not its address.
    expect(spokenScript('Learn more at [our **new** site](https://example.com/docs?a=1).')).toBe('Learn more at our new site.');
    // A line that ends with punctuation inside quotes has ended already.
    expect(spokenScript('He said "hi."\nThen he left')).toBe('He said "hi."\nThen he left');
    expect(captionTokens('“*Quoted*” (**bold**) — ***all***.').map((t) => t.text)).toEqual(['“Quoted”', '(bold) —', 'all.']);
  });

  it('reads inline code without its backticks and a table or a "|" list as words with short pauses', () => {
    // espeak paused at each backtick and said nothing for "|" (no pause: "Home About Contact"),
    // while the captions showed "`npm", "install`" and lit a "|" for a few hundredths of a second.
    expect(captionTokens('Run `npm install` now.').map((t) => t.text)).toEqual(['Run', 'npm', 'install', 'now.']);
    expect(spokenScript('Home | About | Contact')).toBe('Home , About , Contact');
    const table = '| Plan | Price |\n|:-----|------:|\n| Basic | $5 |\n| Pro | $12 |';
    expect(captionTokens(table).map((t) => t.text)).toEqual(['Plan', 'Price', 'Basic', '$5', 'Pro', '$12']);
    expect(spokenScript(table)).not.toMatch(/[|-]/);
    // A pipe inside a word and a lone dash stay as they were.
    expect(spokenScript('A|B testing – done')).toBe('A|B testing – done');
  });
});

describe('a video with Chinese, Arabic and emoji captions', () => {
  const TEXT = '你好世界。 مرحبا بكم 🎉 وداعا.';
  let root: string;
  let engine: RenderEngine;
  let timeline: SpeechTimeline;
  let workDir: string;
  const synth = new SpeechSynth();
  const params = { aspectRatio: '16:9' as const, avatar: { scale: 0.6, x: 0.75, y: 0.4 } };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'ps-scripts-test-'));
    workDir = mkdtempSync(join(root, 'work-'));
    engine = (await createEngine({ cacheDir: join(root, 'cache'), warmSpeech: false }))!;
    await engine.render({
      jobId: 'job_scripts', text: TEXT, templateId: 'corporate-briefing', voiceId: 'en-US-Ava', shortSide: 720, workDir, params,
      signal: new AbortController().signal, onProgress: () => undefined,
    });
    const narration = new Narration(new SpeechEngines(synth), TEXT, engineVoice('en-US-Ava')!, new AbortController().signal);
    while (await narration.next());
    timeline = narration.timeline;
  }, 120_000);
  afterAll(async () => {
    await synth.close();
    await engine.close?.();
    rmSync(root, { recursive: true, force: true });
  });

  it('shows each caption page as the scene draws it, every glyph inked', async () => {
    const scene = await prepareScene('corporate-briefing', { params, shortSide: 720 }, timeline.words);
    const anim = createAnimation(timeline);
    const box = scene.layout.caption;
    const even = (v: number) => Math.floor(v / 2) * 2;
    const region = { x: even(box.x), y: even(box.y), width: even(box.width), height: even(box.height) };
    // The plate without text: a page's glyphs must differ from it clearly.
    const plate = computeLayout('corporate-briefing', params, scene.layout.size);
    expect(plate.caption).toEqual(box);
    const texts = scene.pages.map((p) => p.lines.flat().map((i) => scene.words[i]!.text).join(' '));
    expect(texts.join(' ')).toContain('🎉');
    expect(texts.some((t) => /[你好]/u.test(t))).toBe(true);
    expect(texts.some((t) => /مرحبا/u.test(t))).toBe(true);
    for (const page of scene.pages) {
      // The last word of the page is spoken: every word of it is on screen.
      const last = page.lines.at(-1)!.at(-1)!;
      const t = Math.min(page.end - 0.02, scene.words[last]!.start + 0.1);
      const f = Math.round(t * 30);
      const [frame] = decodeFrames(join(workDir, 'video.mp4'), 1280, 720, f, 1);
      const ref = drawFullFrame(scene, anim, f / 30).getContext('2d').getImageData(0, 0, 1280, 720).data;
      const noText = drawFullFrame({ ...scene, pages: [] }, anim, f / 30).getContext('2d').getImageData(0, 0, 1280, 720).data;
      const diff = regionDiff(frame!, ref, region);
      const fromPlate = regionDiff(frame!, noText, region);
      expect(diff, `page "${texts[scene.pages.indexOf(page)]}"`).toBeLessThan(3);
      expect(fromPlate).toBeGreaterThan(diff * 3);
    }
  });
});
