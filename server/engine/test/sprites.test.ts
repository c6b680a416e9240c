// Frames composed from YUV sprites must show what Skia draws for the same pose and caption:
// the video and the preview (which draws with shared/scene directly) may not drift apart.
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { outputSize } from '../../../shared/contract/index.js';
import { computeLayout, drawBackground, drawFrame, NEUTRAL_POSE, sceneBrand, vectorRig, VISEMES, type CaptionView, type PresenterPose } from '../../../shared/scene/index.js';
import { photoRig } from '../../../shared/scene/photo-rig.js';
import { loadPresenterNode } from '../frames/assets.js';
import { makeCanvasNode } from '../frames/rigs.js';
import { FrameCompositor } from '../frames/frame-compositor.js';
import { planRegions } from '../frames/regions.js';
import { logoSprite } from '../frames/scene-frames.js';
import { changedBoxes, framePlanes, splitOffset, yuvFrameSize } from '../frames/sprites.js';
import { rgbaToYuva } from '../frames/yuv.js';

const FIXTURES = new URL('../../../tests/fixtures/', import.meta.url);

// A brand logo clear of the presenter (part of the still background) and one over the presenter (blended per frame).
const CASES = [
  { template: 'newsroom', aspect: '16:9', avatar: { scale: 0.8, x: 0.72, y: 0.62 }, logo: 'top-left' },
  { template: 'social-short', aspect: '9:16', avatar: { scale: 0.45, x: 0.5, y: 0.4 }, logo: null },
  { template: 'classroom', aspect: '1:1', avatar: { scale: 0.7, x: 0.1, y: 0.5 }, logo: 'bottom-left' }, // partly off the frame
] as const;

/** A logo image: a blue plate with a translucent edge. */
function logoImage() {
  const c = createCanvas(200, 80);
  const g = c.getContext('2d');
  g.fillStyle = 'rgba(11,111,184,0.6)';
  g.fillRect(0, 0, 200, 80);
  g.fillStyle = '#0b6fb8';
  g.beginPath();
  g.roundRect(6, 6, 188, 68, 20);
  g.fill();
  return c;
}

const POSES: PresenterPose[] = [
  { ...NEUTRAL_POSE, viseme: 'rest', lid: 0, headDx: 0, headDy: 0 },
  { ...NEUTRAL_POSE, viseme: 'ai', lid: 0, headDx: 1.37, headDy: 2.9 },
  { ...NEUTRAL_POSE, viseme: 'o', lid: 1, headDx: -2.4, headDy: 0.61 },
  { ...NEUTRAL_POSE, viseme: 'fv', lid: 0, headDx: -0.8, headDy: 3.2 },
  // The head stays put: only the mouth, then the eyes, then both change.
  { ...NEUTRAL_POSE, viseme: 'mbp', lid: 0, headDx: -0.8, headDy: 3.2 },
  { ...NEUTRAL_POSE, viseme: 'mbp', lid: 1, headDx: -0.8, headDy: 3.2 },
  { ...NEUTRAL_POSE, viseme: 'o', lid: 0, headDx: -0.8, headDy: 3.2 },
  { ...NEUTRAL_POSE, viseme: 'rest', lid: 0, headDx: -0.8, headDy: 3.2 },
];

describe('frames composed from sprites', () => {
  it('split offsets into even whole pixels and a one-pixel phase', () => {
    expect(splitOffset(0)).toEqual({ even: 0, phase: 0 });
    expect(splitOffset(3.3)).toEqual({ even: 2, phase: 1 });
    expect(splitOffset(-0.7)).toEqual({ even: -2, phase: 1 });
    expect(splitOffset(-2.2)).toEqual({ even: -2, phase: 0 });
  });

  it('find the changed boxes of an image, one per band of changed rows', () => {
    const w = 40;
    const h = 30;
    const a = new Int32Array(w * h);
    const b = a.slice();
    expect(changedBoxes(a, b, w, h)).toEqual([]);
    b[3 * w + 5] = 0xff0000ff; // row 3
    b[4 * w + 9] = 0xff0000ff; // row 4: same band
    b[20 * w + 30] = 0xff00ff00; // row 20: a second band
    expect(changedBoxes(a, b, w, h)).toEqual([
      { x0: 4, y0: 2, x1: 10, y1: 6 },
      { x0: 30, y0: 20, x1: 32, y1: 22 },
    ]);
    b[11 * w + 1] = 1; // rows 11 and 13, one unchanged row apart: one band
    b[13 * w + 1] = 1;
    expect(changedBoxes(a, b, w, h)[1]).toEqual({ x0: 0, y0: 10, x1: 2, y1: 14 });
    expect(changedBoxes(null, b, w, h)).toHaveLength(3); // null: a transparent image
  });

  for (const c of CASES) {
    it(`compose ${c.template} ${c.aspect} frames as Skia draws them, in every pose and caption`, async () => {
      const size = outputSize(c.aspect, 720);
      const { width: W, height: H } = size;
      const logo = c.logo ? logoImage() : null;
      const brand = c.logo ? sceneBrand({ logo: { assetId: 'logo', position: c.logo, size: 0.3 } }, 200 / 80) : undefined;
      const layout = computeLayout(c.template, { aspectRatio: c.aspect, avatar: c.avatar }, size, undefined, true, brand);
      const assets = await loadPresenterNode(layout.style.presenterId, layout.presenter.height);
      const bg = createCanvas(W, H);
      drawBackground(bg.getContext('2d'), layout);
      const plan = planRegions(layout);
      if (c.logo) {
        const r = layout.logo!;
        const body = plan.body!;
        const overPresenter = r.x < body.x + body.width && body.x < r.x + r.width && r.y < body.y + body.height && body.y < r.y + r.height;
        expect(overPresenter, 'the logo case covers the presenter or keeps clear of it as meant').toBe(c.logo === 'bottom-left');
      }
      const compositor = new FrameCompositor(layout, assets, bg, plan, logoSprite(layout, logo));
      const frame = new Uint8Array(yuvFrameSize(W, H));
      const out = framePlanes(frame, W, H);
      const cr = plan.caption!;
      const cap = createCanvas(cr.width, cr.height);
      const cctx = cap.getContext('2d');
      const ref = createCanvas(W, H);
      const rctx = ref.getContext('2d');
      const k = layout.presenterScale;
      const captions: (CaptionView | null)[] = [{ lines: [['Hello', 'there,'], ['creators!']], activeIndex: 1 }, null, { lines: [['Quick', 'test.']], activeIndex: 0 }];
      let first = true;
      for (const [i, pose] of POSES.entries()) {
        const view = captions[i % captions.length]!;
        cctx.clearRect(0, 0, cr.width, cr.height);
        cctx.save();
        cctx.translate(-cr.x, -cr.y);
        drawFrame(cctx, null, layout, { pose, caption: view }, { layers: ['caption'] });
        cctx.restore();
        // The first frame is composed whole, later ones only where something changed.
        const dirty = [compositor.setPose(pose), ...compositor.setCaption(cap.data(), cr)];
        if (first) compositor.compose(out);
        else for (const d of dirty) if (d) compositor.compose(out, d);
        first = false;
        // Skia draws the same frame, the head moved by the same whole-pixel offset.
        const snap = (v: number) => Math.round(v * k) / k;
        drawFrame(rctx, vectorRig(assets), layout, { pose: { ...pose, headDx: snap(pose.headDx), headDy: snap(pose.headDy) }, caption: view }, { background: bg, logo: logo ?? undefined });
        const want = rgbaToYuva(ref.data(), W, H);
        const diffs = (a: Uint8Array, b: Uint8Array) => Array.from(a, (v, j) => Math.abs(v - b[j]!)).sort((x, y) => x - y);
        for (const [plane, got, exp] of [['y', out.y, want.y], ['u', out.u, want.u], ['v', out.v, want.v]] as const) {
          const d = diffs(got, exp);
          const mean = d.reduce((sum, v) => sum + v, 0) / d.length;
          const p999 = d[Math.floor(d.length * 0.999)]!;
          expect(mean, `${plane} mean difference, pose ${JSON.stringify(pose)}`).toBeLessThan(0.1);
          expect(p999, `${plane} 99.9th percentile difference`).toBeLessThanOrEqual(2);
        }
      }
    });
  }

  it('compose a photo presenter as the preview draws it, mouth open, eyes shut, the head moved and rolled', async () => {
    const size = outputSize('16:9', 720);
    const { width: W, height: H } = size;
    const marks = z.object({ landmarks: z.array(z.array(z.number())) }).parse(JSON.parse(readFileSync(new URL('astronaut.landmarks.json', FIXTURES), 'utf8')));
    const portrait = await loadImage(readFileSync(new URL('astronaut.jpg', FIXTURES)));
    const rig = photoRig({ id: 'p', portrait, width: portrait.width, height: portrait.height, landmarks: marks.landmarks, mask: null }, makeCanvasNode);
    const layout = computeLayout('newsroom', { aspectRatio: '16:9', avatar: { scale: 0.8, x: 0.72, y: 0.62 } }, size, rig.geometry);
    const bg = createCanvas(W, H);
    drawBackground(bg.getContext('2d'), layout);
    const plan = planRegions(layout);
    const compositor = new FrameCompositor(layout, null, bg, plan, null, rig);
    // Compared where the face moves (elsewhere the frame is the still picture).
    const head = plan.presenter!;
    const inHead = (plane: Uint8Array, w: number, s: number) =>
      Array.from({ length: (head.height / s) * (head.width / s) }, (_, j) => plane[(head.y / s + Math.floor(j / (head.width / s))) * w + head.x / s + (j % (head.width / s))]!);
    const out = framePlanes(new Uint8Array(yuvFrameSize(W, H)), W, H);
    const ref = createCanvas(W, H);
    const rctx = ref.getContext('2d');
    // Each head position a few pixels from the last (drawn where the pose has it), then held while the mouth and eyes change.
    const poses: PresenterPose[] = [
      { ...NEUTRAL_POSE, viseme: 'rest', open: 0, lid: 0, headDx: 0, headDy: 0, headRoll: 0 },
      { ...NEUTRAL_POSE, viseme: 'ai', open: 0.9, lid: 0, headDx: 2.37, headDy: 2.9, headRoll: 0.012 },
      { ...NEUTRAL_POSE, viseme: 'o', open: 0.7, lid: 1, headDx: -2.4, headDy: 0.61, headRoll: -0.015 },
      { ...NEUTRAL_POSE, viseme: 'e', open: 0.5, lid: 0, headDx: -2.4, headDy: 0.61, headRoll: -0.015 },
      { ...NEUTRAL_POSE, viseme: 'mbp', open: 0, lid: 0.5, headDx: -2.4, headDy: 0.61, headRoll: -0.015 },
    ];
    for (const [i, pose] of poses.entries()) {
      const dirty = compositor.setPose(pose);
      if (i === 0) compositor.compose(out);
      else if (dirty) compositor.compose(out, dirty);
      drawFrame(rctx, rig, layout, { pose, caption: null }, { background: bg });
      const want = rgbaToYuva(ref.data(), W, H);
      for (const [plane, got, exp, s] of [['y', out.y, want.y, 1], ['u', out.u, want.u, 2], ['v', out.v, want.v, 2]] as const) {
        const a = inHead(got, W / s, s);
        const b = inHead(exp, W / s, s);
        const d = a.map((v, j) => Math.abs(v - b[j]!)).sort((x, y) => x - y);
        expect(d.reduce((sum, v) => sum + v, 0) / d.length, `${plane} mean difference, pose ${i}`).toBeLessThan(0.3);
        expect(d[d.length - 1]!, `${plane} largest difference, pose ${i}`).toBeLessThanOrEqual(3);
      }
    }
  });

  it('reuse their sprites: a minute of idle motion cuts a bounded number of them', async () => {
    const size = outputSize('16:9', 720);
    const layout = computeLayout('newsroom', { aspectRatio: '16:9', avatar: { scale: 0.8, x: 0.72, y: 0.62 } }, size);
    const assets = await loadPresenterNode(layout.style.presenterId, layout.presenter.height);
    const bg = createCanvas(size.width, size.height);
    const compositor = new FrameCompositor(layout, assets, bg, planRegions(layout));
    const out = framePlanes(new Uint8Array(yuvFrameSize(size.width, size.height)), size.width, size.height);
    const visemes = VISEMES;
    for (let f = 0; f < 1800; f++) {
      const t = f / 30;
      const moved = compositor.setPose({ ...NEUTRAL_POSE, viseme: visemes[f % visemes.length]!, lid: f % 90 < 4 ? 1 : 0, headDx: 2.4 * Math.sin(t), headDy: 1.6 * (1 - Math.cos(t)) });
      if (moved) compositor.compose(out, moved);
    }
    // Moving layers (hair behind, head, two eyes, every mouth) × 4 pixel phases at most.
    expect(compositor.spriteCount).toBeLessThanOrEqual((4 + VISEMES.length) * 4);
  });
});
