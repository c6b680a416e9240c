// Captions stay off the presenter's face: for every template, aspect ratio and a range of
// placements (the template's own, left, right, high, low, large), the caption box the default
// position chooses never meets the face's region (a presenter that fills the frame leaves no such
// place: then the least of it is covered); the explicit positions go where they say.
import { describe, expect, it } from 'vitest';
import { outputSize, type Avatar, type RenderParams } from '../../contract/index.js';
import { computeLayout, faceRegion, overlapArea, TEMPLATES } from '../index.js';

const PLACEMENTS: Avatar[] = [
  { scale: 0.6, x: 0.5, y: 0.58 },
  { scale: 0.6, x: 0.75, y: 0.6 },
  { scale: 0.6, x: 0.25, y: 0.6 },
  { scale: 0.7, x: 0.72, y: 0.7 },
  { scale: 0.5, x: 0.5, y: 0.3 },
  { scale: 0.45, x: 0.5, y: 0.85 },
  { scale: 0.8, x: 0.72, y: 0.62 },
  { scale: 0.8, x: 0.28, y: 0.62 },
  { scale: 0.7, x: 0.5, y: 0.62 },
];

const cases = TEMPLATES.flatMap((t) =>
  t.aspectRatios.flatMap((aspectRatio) => [t.defaults.avatar, ...PLACEMENTS].map((avatar) => ({ templateId: t.id, aspectRatio, avatar }))),
);

describe('the default caption position', () => {
  it.each(cases)('keeps the face clear: $templateId $aspectRatio $avatar.scale@$avatar.x,$avatar.y', ({ templateId, aspectRatio, avatar }) => {
    const size = outputSize(aspectRatio, 1080);
    const layout = computeLayout(templateId, { aspectRatio, avatar }, size);
    expect(overlapArea(layout.caption, faceRegion(layout))).toBe(0);
    // Still inside the title-safe area, and tall enough for its lines.
    const safe = layout.safe;
    expect(layout.caption.y).toBeGreaterThanOrEqual(safe.y);
    expect(layout.caption.y + layout.caption.height).toBeLessThanOrEqual(safe.y + safe.height);
    expect(layout.caption.x).toBeGreaterThanOrEqual(safe.x - 1);
    expect(layout.caption.x + layout.caption.width).toBeLessThanOrEqual(safe.x + safe.width + 1);
  });

  it('is the bottom where the face is clear of it (the template as shipped)', () => {
    const t = TEMPLATES.find((e) => e.id === 'newsroom')!;
    const size = outputSize('16:9', 720);
    const auto = computeLayout(t.id, t.defaults, size);
    const bottom = computeLayout(t.id, { ...t.defaults, captionPosition: 'bottom' }, size);
    expect(auto.caption).toEqual(bottom.caption);
  });
});

describe('an explicit caption position', () => {
  const params: RenderParams = { aspectRatio: '16:9', avatar: { scale: 0.8, x: 0.75, y: 0.62 } };
  const size = outputSize('16:9', 720);
  const at = (captionPosition: RenderParams['captionPosition']) => computeLayout('newsroom', { ...params, captionPosition }, size);

  it('bottom sits on the safe area\'s bottom edge, top on its top edge', () => {
    const bottom = at('bottom');
    expect(bottom.caption.y + bottom.caption.height).toBe(bottom.safe.y + bottom.safe.height);
    expect(at('top').caption.y).toBe(bottom.safe.y);
  });

  it('beside lies in the column the presenter leaves free, clear of all of the presenter', () => {
    const l = at('beside');
    expect(overlapArea(l.caption, l.presenterBounds)).toBe(0);
    expect(l.caption.x + l.caption.width).toBeLessThanOrEqual(l.presenterBounds.x);
  });

  it('a scene without a presenter keeps its captions at the bottom by default', () => {
    const none = computeLayout('newsroom', params, size, undefined, false);
    expect(none.caption).toEqual(at('bottom').caption);
  });
});
