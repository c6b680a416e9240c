// Samples the bottom row of each presenter's torso (body.svg) and writes
// shared/scene/presenter-torso.ts: colour runs that shared/scene uses to continue the torso
// down to the frame's bottom edge when a presenter is placed high, so it never ends in mid-air.
// Run after changing the art: npx tsx tools/engine/torso-runs.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { ART_HEIGHT, ART_WIDTH, PRESENTER_IDS } from '../../shared/scene/index.js';

const root = join(import.meta.dirname, '../..');
const hex = (r: number, g: number, b: number) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const out: Record<string, { x: number; width: number; color: string }[]> = {};

for (const id of PRESENTER_IDS) {
  const img = await loadImage(join(root, 'resources/presenters', id, 'body.svg'));
  const canvas = createCanvas(ART_WIDTH, ART_HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0, ART_WIDTH, ART_HEIGHT);
  const row = ctx.getImageData(0, ART_HEIGHT - 2, ART_WIDTH, 1).data;
  const runs: { x: number; width: number; color: string }[] = [];
  for (let x = 0; x < ART_WIDTH; x++) {
    const [r, g, b, a] = [row[x * 4]!, row[x * 4 + 1]!, row[x * 4 + 2]!, row[x * 4 + 3]!];
    if (a < 128) continue;
    const color = hex(r, g, b);
    const last = runs[runs.length - 1];
    if (last && last.color === color && last.x + last.width === x) last.width++;
    else runs.push({ x, width: 1, color });
  }
  out[id] = runs; // every run, anti-aliased seams included: the continuation matches the edge exactly
}

const body = Object.entries(out)
  .map(([id, runs]) => `  ${id}: [\n${runs.map((r) => `    { x: ${r.x}, width: ${r.width}, color: '${r.color}' },`).join('\n')}\n  ],`)
  .join('\n');
writeFileSync(
  join(root, 'shared/scene/presenter-torso.ts'),
  `// The colours along the bottom edge of each presenter's torso, in art units (viewBox 400×480).
// Written by tools/engine/torso-runs.ts from resources/presenters/*/body.svg; do not edit by hand.
export interface TorsoRun {
  x: number;
  width: number;
  color: string;
}

export const PRESENTER_TORSO_RUNS: Record<string, TorsoRun[]> = {
${body}
};
`,
);
console.log(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.length])));
