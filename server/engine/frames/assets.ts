// Node-side loading of the scene's resources: bundled fonts into Skia's GlobalFonts and the
// presenter SVG layers as @napi-rs/canvas images.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { readPackedFile, readPackedFileSync } from '../../packed-file.mjs';
import { ART_HEIGHT, ART_WIDTH, loadPresenter, SCENE_FONTS, type PresenterAssets } from '../../../shared/scene/index.js';

export const RESOURCES_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../resources');

let fontsRegistered = false;

/** Registers the bundled fonts once per process. */
export function registerFonts(): void {
  if (fontsRegistered) return;
  // Read through readPackedFile: the packaged app stores them compressed (electron/build/after-pack.mjs).
  for (const f of SCENE_FONTS) {
    if (!GlobalFonts.register(readPackedFileSync(join(RESOURCES_DIR, 'fonts', f.file)), f.family)) throw new Error(`Skia could not read the font ${f.file}.`);
  }
  fontsRegistered = true;
}

/**
 * Loads a presenter's SVG layers. With `pixelHeight` each layer is rasterised once into a
 * bitmap of the size it will be drawn: Skia otherwise re-renders the SVG on every drawImage.
 */
export async function loadPresenterNode(id: string, pixelHeight?: number): Promise<PresenterAssets> {
  return loadPresenter(id, async (_part, file) => {
    let svg = (await readPackedFile(join(RESOURCES_DIR, 'presenters', file))).toString('utf8');
    if (!pixelHeight) return loadImage(Buffer.from(svg));
    const h = Math.max(1, Math.ceil(pixelHeight));
    const w = Math.max(1, Math.ceil((h * ART_WIDTH) / ART_HEIGHT));
    svg = svg.replace(/width="\d+" height="\d+"/, `width="${w}" height="${h}"`);
    const img = await loadImage(Buffer.from(svg));
    const bitmap = createCanvas(w, h);
    bitmap.getContext('2d').drawImage(img, 0, 0, w, h);
    return bitmap;
  });
}
