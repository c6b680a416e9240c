// shared/scene's promises that hold for every template and aspect ratio: captions inside the
// safe area, the presenter where params say, art for every presenter and mouth shape, and a
// mouth vocabulary of at least five shapes reached from real espeak phonemes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { ASPECT_RATIOS, outputSize } from '../../../shared/contract/index.js';
import {
  captionAt, computeLayout, createAnimation, hitPresenter, measureWith, paginateCaptions, poseAt, PRESENTER_IDS, PRESENTER_PARTS,
  parseTemplateCatalog, TEMPLATES as templates, visemeOf, type TimedWord,
} from '../../../shared/scene/index.js';
import { RESOURCES_DIR, registerFonts } from '../frames/assets.js';
import { SpeechSynth } from '../speech/speech.js';
import { espeakVoice } from '../speech/voices.js';

const inside = (r: { x: number; y: number; width: number; height: number }, o: typeof r) =>
  r.x >= o.x - 0.5 && r.y >= o.y - 0.5 && r.x + r.width <= o.x + o.width + 0.5 && r.y + r.height <= o.y + o.height + 0.5;

describe('layout', () => {
  registerFonts();
  const words: TimedWord[] = 'Extraordinary announcements require unmistakably legible captions, whatever the frame shape!'
    .split(' ')
    .map((text, i) => ({ text, start: i * 0.4, end: i * 0.4 + 0.35 }));

  it.each(templates.flatMap((t) => ASPECT_RATIOS.map((a) => [t.id, a] as const)))('%s at %s keeps captions in the safe area', (id, aspect) => {
    const size = outputSize(aspect, 720);
    const layout = computeLayout(id, { aspectRatio: aspect, avatar: templates.find((t) => t.id === id)!.defaults.avatar }, size);
    expect(inside(layout.caption, layout.safe)).toBe(true);
    // Every caption page's lines fit the box's width and line count.
    const ctx = createCanvas(size.width, size.height).getContext('2d');
    const measure = measureWith(ctx, layout);
    for (const page of paginateCaptions(layout, words, measure)) {
      expect(page.lines.length).toBeLessThanOrEqual(layout.style.captionLines);
      for (const line of page.lines) {
        const text = line.map((i) => (layout.style.uppercase ? words[i]!.text.toUpperCase() : words[i]!.text)).join(' ');
        // A single over-long word may not fit any width; everything else must.
        if (line.length > 1) expect(measure(text)).toBeLessThanOrEqual(layout.caption.width - 2 * layout.captionPadding);
      }
    }
  });

  it('places the presenter by centre and height fraction, and hit-tests its painted box', () => {
    const l = computeLayout('newsroom', { aspectRatio: '16:9', avatar: { scale: 0.5, x: 0.25, y: 0.5 } }, { width: 1280, height: 720 });
    expect(l.presenter.height).toBeCloseTo(360);
    expect(l.presenter.x + l.presenter.width / 2).toBeCloseTo(320);
    expect(l.presenter.y + l.presenter.height / 2).toBeCloseTo(360);
    const b = l.presenterBounds;
    expect(hitPresenter(l, b.x + b.width / 2, b.y + b.height / 2)).toBe(true);
    expect(hitPresenter(l, b.x - 2, b.y)).toBe(false);
  });

  it('draws every template with its catalog presenter', () => {
    for (const t of templates) expect(computeLayout(t.id, t.defaults, { width: 1280, height: 720 }).style.presenterId).toBe(t.presenter.id);
  });

  it('refuses a catalog entry the scene cannot draw, naming the field', () => {
    const raw: unknown = JSON.parse(readFileSync(join(RESOURCES_DIR, 'templates.json'), 'utf8'));
    expect(parseTemplateCatalog(raw)).toEqual(templates);
    const first = templates[0]!;
    const bad = (patch: Record<string, unknown>) => ({ templates: [{ ...first, ...patch }] });
    const scene = first.scene;
    expect(() => parseTemplateCatalog(bad({ scene: undefined }))).toThrow(/templates\[0\]\.scene/);
    expect(() => parseTemplateCatalog(bad({ scene: { ...scene, background: 'beach' } }))).toThrow(/scene\.background/);
    expect(() => parseTemplateCatalog(bad({ scene: { ...scene, font: { family: 'Comic Sans', weight: 'bold', style: 'normal' } } }))).toThrow(/scene\.font/);
    expect(() => parseTemplateCatalog(bad({ presenter: { id: 'nobody', name: 'Nobody' } }))).toThrow(/presenter\.id/);
    expect(() => parseTemplateCatalog(bad({ defaults: { aspectRatio: '4:3', avatar: { scale: 0.6, x: 0.5, y: 0.5 } }, aspectRatios: ['16:9'] }))).toThrow(/defaults\.aspectRatio/);
    expect(() => parseTemplateCatalog({ templates: [first, first] })).toThrow(/used twice/);
    expect(() => parseTemplateCatalog(bad({ colour: 'red' }))).toThrow(/templates\[0\]\.colour: unknown field/);
    expect(() => computeLayout('no-such-template', first.defaults, { width: 1280, height: 720 })).toThrow(/Unknown template/);
  });
});

describe('presenters', () => {
  it('have every layer and mouth shape as SVG art', () => {
    for (const id of PRESENTER_IDS) {
      for (const part of PRESENTER_PARTS) {
        const file = join(RESOURCES_DIR, 'presenters', id, `${part}.svg`);
        expect(existsSync(file), file).toBe(true);
        expect(readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*viewBox="0 0 400 480"/);
      }
    }
  });

  it('speak with at least five mouth shapes from real espeak phonemes, rest at t=0, and blink', async () => {
    const synth = new SpeechSynth();
    const sp = await synth.synthesize('Bob fed the sheep; who knows why, oh well. Maybe five or six!', espeakVoice('en-US-Ava')!);
    await synth.close();
    const shapes = new Set(sp.timeline.phonemes.map((p) => visemeOf(p.phoneme)));
    expect(shapes.size).toBeGreaterThanOrEqual(6);
    const anim = createAnimation(sp.timeline);
    expect(poseAt(anim, 0)).toMatchObject({ viseme: 'rest', lid: 0, headDx: 0, headDy: 0 });
    const frames = Array.from({ length: Math.ceil(sp.timeline.durationSeconds * 30) }, (_, i) => poseAt(anim, i / 30));
    expect(frames.some((p) => p.lid === 1)).toBe(true);
    expect(new Set(frames.map((p) => p.viseme)).size).toBeGreaterThanOrEqual(5);
  });

  it('caption pages end at a sentence, not at an abbreviation (Mr., Dr., z.B.) or a German date', () => {
    const words: TimedWord[] = 'Ask Mr. Smith, Dr. Müller z.B. am 3. April. Then go.'.split(' ').map((text, i) => ({ text, start: i, end: i + 0.8 }));
    const layout = computeLayout('newsroom', { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.5 } }, { width: 1280, height: 720 });
    const pages = paginateCaptions(layout, words, () => 1); // every word fits: only sentences end pages
    expect(pages.map((p) => p.lines.flat().map((i) => words[i]!.text).join(' '))).toEqual(['Ask Mr. Smith, Dr. Müller z.B. am 3. April.', 'Then go.']);
  });

  it('caption view highlights the spoken word and keeps its place after it', () => {
    const words: TimedWord[] = [{ text: 'One', start: 0.1, end: 0.4 }, { text: 'two.', start: 0.5, end: 0.9 }, { text: 'Three', start: 1.4, end: 1.8 }];
    const layout = computeLayout('newsroom', { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.7, y: 0.5 } }, { width: 1280, height: 720 });
    const pages = paginateCaptions(layout, words, (t) => t.length * 20);
    expect(pages).toHaveLength(2); // a sentence ends a page
    expect(captionAt(pages, words, 0.6)).toEqual({ lines: [['One', 'two.']], activeIndex: 1 });
    expect(captionAt(pages, words, 1.2)).toEqual({ lines: [['One', 'two.']], activeIndex: 1 });
    expect(captionAt(pages, words, 1.5)).toEqual({ lines: [['Three']], activeIndex: 0 });
  });
});
