// Node-side loading of the scene's resources: bundled fonts into Skia's GlobalFonts and the
// presenter SVG layers as @napi-rs/canvas images.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts, loadImage } from '@napi-rs/canvas';
import { loadPresenter, SCENE_FONTS, type PresenterAssets } from '../../shared/scene/index.js';

export const RESOURCES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../resources');

let fontsRegistered = false;

/** Registers the bundled fonts once per process. */
export function registerFonts(): void {
  if (fontsRegistered) return;
  for (const f of SCENE_FONTS) GlobalFonts.registerFromPath(join(RESOURCES_DIR, 'fonts', f.file), f.family);
  fontsRegistered = true;
}

/**
 * Loads a presenter's SVG layers. `pixelHeight` rasterises the SVGs at the size they will be
 * drawn (crisp edges, no resampling of a small bitmap).
 */
export async function loadPresenterNode(id: string, pixelHeight?: number): Promise<PresenterAssets> {
  return loadPresenter(id, async (_part, file) => {
    let svg = await readFile(join(RESOURCES_DIR, 'presenters', file), 'utf8');
    if (pixelHeight) {
      const h = Math.max(1, Math.ceil(pixelHeight));
      const w = Math.max(1, Math.ceil((h * 400) / 480));
      svg = svg.replace(/width="\d+" height="\d+"/, `width="${w}" height="${h}"`);
    }
    return loadImage(Buffer.from(svg));
  });
}
