// Every presenter of the cast with every template, and every template's placement at every
// aspect ratio: the presenter stands fully inside the frame (its painted box, sides and top;
// the torso continues below the frame's edge), drawn by the shared scene code.
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { outputSize } from '../../../shared/contract/index.js';
import { CAST, computeLayout, drawFrame, fillParams, NEUTRAL_POSE, TEMPLATES } from '../../../shared/scene/index.js';
import { loadRig } from '../frames/rigs.js';

describe('the cast', () => {
  it('has at least twelve presenters of every gender and age', () => {
    expect(CAST.length).toBeGreaterThanOrEqual(12);
    expect(new Set(CAST.map((p) => p.gender))).toEqual(new Set(['female', 'male', 'neutral']));
    expect(new Set(CAST.map((p) => p.age))).toEqual(new Set(['young', 'adult', 'older']));
  });

  it('places every presenter fully in frame at every template\'s default for every aspect ratio', () => {
    for (const t of TEMPLATES) {
      for (const ar of t.aspectRatios) {
        const size = outputSize(ar, 720);
        const params = fillParams(t.id, { aspectRatio: ar });
        for (const p of CAST) {
          const b = computeLayout(t.id, params, size, p.id).presenterBounds;
          const where = `${t.id} ${ar} ${p.id}`;
          expect(b.x, where).toBeGreaterThanOrEqual(0);
          expect(b.x + b.width, where).toBeLessThanOrEqual(size.width);
          expect(b.y, where).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  it('draws any presenter with any template: their own art, in their box', async () => {
    const size = { width: 160, height: 90 };
    for (const [i, p] of CAST.entries()) {
      const t = TEMPLATES[i % TEMPLATES.length]!;
      const layout = computeLayout(t.id, fillParams(t.id, { aspectRatio: '16:9' }), size, p.id);
      const rig = await loadRig({ kind: 'vector', id: p.id }, layout.presenter.height);
      const c = createCanvas(size.width, size.height);
      drawFrame(c.getContext('2d'), rig, layout, { pose: NEUTRAL_POSE, caption: null }, { layers: ['presenter'] });
      const px = c.getContext('2d').getImageData(0, 0, size.width, size.height).data;
      let painted = 0;
      for (let k = 3; k < px.length; k += 4) if (px[k]! > 0) painted++;
      expect(painted, p.id).toBeGreaterThan(200);
      expect(layout.style.presenterId).toBe(p.id);
    }
  });
});
