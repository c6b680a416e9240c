// Regenerates resources/icons/*.png from resources/icons/icon.svg (run from the repo root:
// `node electron/build/icons.mjs`; then `convert 16x16.png … 256x256.png icon.ico` for Windows).
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { readFileSync, writeFileSync } from 'node:fs';
const svg = readFileSync('resources/icons/icon.svg');
const img = await loadImage(svg);
for (const s of [16, 32, 48, 64, 128, 256, 512, 1024]) {
  const c = createCanvas(s, s);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0, s, s);
  writeFileSync(`resources/icons/${s}x${s}.png`, c.toBuffer('image/png'));
}
