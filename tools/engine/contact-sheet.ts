// Dev aid: draws every presenter in several poses on one PNG, to look at the art.
// Run: npx tsx tools/engine/contact-sheet.ts out.png
import { writeFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import { computeLayout, drawPresenter, NEUTRAL_POSE, PRESENTER_IDS, TEMPLATES, type Viseme } from '../../shared/scene/index.js';
import { loadPresenterNode } from '../../server/engine/frames/assets.js';

const poses: { viseme: Viseme; lid: number }[] = [
  { viseme: 'rest', lid: 0 }, { viseme: 'ai', lid: 0 }, { viseme: 'e', lid: 0 },
  { viseme: 'o', lid: 0 }, { viseme: 'u', lid: 0 }, { viseme: 'mbp', lid: 0 }, { viseme: 'fv', lid: 1 },
  { viseme: 'etc', lid: 0 },
];
const cw = 200;
const chh = 240;
const c = createCanvas(cw * poses.length, chh * PRESENTER_IDS.length);
const ctx = c.getContext('2d');
ctx.fillStyle = '#8fa3b8';
ctx.fillRect(0, 0, c.width, c.height);
for (const [row, id] of PRESENTER_IDS.entries()) {
  const assets = await loadPresenterNode(id);
  for (const [col, p] of poses.entries()) {
    const layout = computeLayout(TEMPLATES[0]!.id, { aspectRatio: '1:1', avatar: { scale: 1, x: 0.5, y: 0.5 } }, { width: cw, height: chh }, id);
    ctx.save();
    ctx.translate(col * cw, row * chh);
    drawPresenter(ctx, assets, layout, { ...NEUTRAL_POSE, ...p });
    ctx.restore();
  }
}
writeFileSync(process.argv[2] ?? 'sheet.png', c.toBuffer('image/png'));
