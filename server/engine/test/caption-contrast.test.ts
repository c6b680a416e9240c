// Text stays readable. The text a template's art draws (a sign, a formula on the board), in
// every aspect ratio: its letters reach 4.5:1 against the pixels right around them, measured as
// below on the background drawn with and without its letters.
// Captions stay readable under any brand: for every template × brand caption style × accent
// colour (white, yellow, a brand blue) over the template's own background and over a creator's
// white, black and mid-grey pictures, each word's letters reach 4.5:1 against the pixels right
// around them (the plate, the outline, or the background). Measured on the drawn canvas: the
// frame drawn as the engine draws it without any letters (fillText left out), then with every
// other word's letters (no word beside or above a measured one), so each word's pixels and
// what is directly behind them are known exactly.
import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { ASPECT_RATIOS, CAPTION_STYLES, outputSize, type CaptionStyle } from '../../../shared/contract/index.js';
import {
  captionWordReach, computeLayout, contrastRatio, drawBackground, drawFrame, MIN_CONTRAST, NEUTRAL_POSE, sceneBrand, TEMPLATES,
  type CaptionView, type Ctx2D, type Rect,
} from '../../../shared/scene/index.js';
import { registerFonts } from '../frames/assets.js';

const ACCENTS = { white: '#ffffff', yellow: '#ffd400', brand: '#1e4fd8' } as const;
const BACKGROUNDS = { template: null, white: '#ffffff', black: '#000000', grey: '#777777' } as const;
const VIEW: CaptionView = { lines: [['Quarterly', 'numbers', 'are', 'in'], ['and', 'they', 'look', 'good.']], activeIndex: 2 };
/** Words measured together: a checkerboard of the lines, so no measured word has a measured neighbour beside or above it. */
const GROUP = VIEW.lines.flatMap((line, l) => line.map((_, i) => (i + l) % 2));

/** The same context with fillText drawing only the texts `draws` keeps: the frame without the other letters. */
function lettersOf(ctx: SKRSContext2D, only: ReadonlySet<string> | ((text: string) => boolean)): Ctx2D {
  const draws = typeof only === 'function' ? only : (text: string) => only.has(text.toLowerCase());
  return new Proxy(ctx, {
    get(target, prop) {
      if (prop === 'fillText') return (text: string, x: number, y: number) => (draws(text) ? target.fillText(text, x, y) : undefined);
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
    set: (target, prop, value) => Reflect.set(target, prop, value, target),
  }) as unknown as Ctx2D;
}

/**
 * One word's contrast: its letters are the pixels its letters changed (`a` with them, `b`
 * without), their colour the median of the letters' inner pixels (all four neighbours letters
 * too); what is behind them the ring of pixels within two pixels of a letter that the letters
 * did not touch. The word's contrast is the 10th percentile of its ring's contrast with its colour.
 */
function wordContrast(a: Uint8ClampedArray | Uint8Array, b: Uint8ClampedArray | Uint8Array, W: number, H: number, r: Rect): number {
  const x0 = Math.max(0, Math.floor(r.x)), y0 = Math.max(0, Math.floor(r.y));
  const x1 = Math.min(W, Math.ceil(r.x + r.width)), y1 = Math.min(H, Math.ceil(r.y + r.height));
  const w = x1 - x0, h = y1 - y0;
  const ink = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = ((y + y0) * W + x + x0) * 4;
      ink[y * w + x] = Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 24 ? 1 : 0;
    }
  }
  // Within two pixels of a letter: the ink dilated by a 5×5 square, rows then columns.
  const rows = new Uint8Array(w * h);
  const near = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let d = -2; d <= 2; d++) if (ink[y * w + Math.min(w - 1, Math.max(0, x + d))]) rows[y * w + x] = 1;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let d = -2; d <= 2; d++) if (rows[Math.min(h - 1, Math.max(0, y + d)) * w + x]) near[y * w + x] = 1;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 0 : ink[y * w + x]!);
  const core: number[][] = [[], [], []];
  const ring: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = ((y + y0) * W + x + x0) * 4;
      if (at(x, y)) {
        if (at(x - 1, y) && at(x + 1, y) && at(x, y - 1) && at(x, y + 1)) for (let k = 0; k < 3; k++) core[k]!.push(a[i + k]!);
      } else if (near[y * w + x]) ring.push(i);
    }
  }
  expect(core[0]!.length, 'the word left letters to measure').toBeGreaterThan(10);
  const med = (k: number) => core[k]!.sort((p, q) => p - q)[core[k]!.length >> 1]!;
  const text = { r: med(0), g: med(1), b: med(2) };
  const ratios = ring.map((i) => contrastRatio(text, { r: a[i]!, g: a[i + 1]!, b: a[i + 2]! })).sort((p, q) => p - q);
  return ratios[Math.floor(ratios.length * 0.1)]!;
}

describe.each(TEMPLATES.map((t) => [t.id, t] as const))('captions of %s under a brand', (id, template) => {
  const aspect = template.defaults.aspectRatio;
  // Three quarters of the 720p frame (540p) keeps the test cheap; the caption's geometry scales with the frame.
  const at720 = outputSize(aspect, 720);
  const size = { width: Math.round(at720.width * 0.75), height: Math.round(at720.height * 0.75) };
  const cases = CAPTION_STYLES.flatMap((style) => Object.entries(ACCENTS).map(([name, accent]) => ({ style, name, accent })));
  it.each(cases)('$style, accent $name ($accent): every word ≥ 4.5:1 on every background', ({ style, accent }: { style: CaptionStyle; accent: string }) => {
    registerFonts();
    const brand = sceneBrand({ accentColor: accent, captionStyle: style }, null);
    const layout = computeLayout(id, template.defaults, size, undefined, true, brand);
    const { width: W, height: H } = size;
    // Only the caption's region is drawn and read (with room for what its style paints past the box).
    const m = layout.captionFontPx;
    const cr = { x: Math.max(0, layout.caption.x - m), y: Math.max(0, layout.caption.y - m), width: 0, height: 0 };
    cr.width = Math.min(W, layout.caption.x + layout.caption.width + m) - cr.x;
    cr.height = Math.min(H, layout.caption.y + layout.caption.height + m) - cr.y;
    const full = createCanvas(cr.width, cr.height);
    const bare = createCanvas(cr.width, cr.height);
    const rects = captionWordReach(full.getContext('2d'), layout, VIEW).map((r) => ({ ...r, x: r.x - cr.x, y: r.y - cr.y }));
    const words = VIEW.lines.flat();
    for (const [bgName, colour] of Object.entries(BACKGROUNDS)) {
      const background = createCanvas(W, H);
      const bctx = background.getContext('2d');
      if (colour) {
        bctx.fillStyle = colour;
        bctx.fillRect(0, 0, W, H);
      } else drawBackground(bctx, layout);
      const paint = (canvas: typeof full, only: ReadonlySet<string>) => {
        const ctx = lettersOf(canvas.getContext('2d'), only);
        ctx.save();
        ctx.translate(-cr.x, -cr.y);
        drawFrame(ctx, null, layout, { pose: NEUTRAL_POSE, caption: VIEW }, { background, layers: ['background', 'caption'] });
        ctx.restore();
        return canvas.data(); // opaque (the background fills it): premultiplied is plain RGBA
      };
      const without = paint(bare, new Set());
      for (const parity of [0, 1]) {
        const group = words.filter((_, i) => GROUP[i] === parity);
        const withWords = paint(full, new Set(group.map((w) => w.toLowerCase())));
        words.forEach((word, i) => {
          if (GROUP[i] !== parity) return;
          const c = wordContrast(withWords, without, cr.width, cr.height, rects[i]!);
          expect(c, `${bgName} background: "${word}"${i === VIEW.activeIndex ? ' (spoken)' : ''}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
        });
      }
    }
  });
});

describe('text the templates draw', () => {
  const drawn: string[] = [];
  const cases = TEMPLATES.flatMap((t) => ASPECT_RATIOS.map((aspect) => ({ id: t.id, aspect })));
  it.each(cases)('$id at $aspect: its letters ≥ 4.5:1 on what is behind them', ({ id, aspect }) => {
    registerFonts();
    const at720 = outputSize(aspect, 720);
    const size = { width: Math.round(at720.width * 0.75), height: Math.round(at720.height * 0.75) };
    const layout = computeLayout(id, { ...TEMPLATES.find((t) => t.id === id)!.defaults, aspectRatio: aspect }, size, undefined, true);
    const texts: string[] = [];
    const paint = (withText: boolean) => {
      const canvas = createCanvas(size.width, size.height);
      drawBackground(lettersOf(canvas.getContext('2d'), (text) => (texts.push(text), withText)), layout);
      return canvas.data();
    };
    const without = paint(false);
    const withText = paint(true);
    if (!texts.length) return; // this template's art has no text
    drawn.push(`${id} ${aspect}`);
    const c = wordContrast(withText, without, size.width, size.height, { x: 0, y: 0, ...size });
    expect(c, `${id} ${aspect}: ${[...new Set(texts)].join(', ')}`).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });
  it('measured some template text (the art of at least two templates writes something)', () => {
    expect(new Set(drawn.map((d) => d.split(' ')[0])).size).toBeGreaterThanOrEqual(2);
  });
});
