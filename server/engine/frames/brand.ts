// Extension `brand` in the engine: the job's font asset registered with Skia (once per process,
// under the family shared/scene names it by) and its logo decoded once and drawn at the size it
// takes in the frame, so every frame blends the same small sprite.
import { readFile } from 'node:fs/promises';
import { createCanvas, GlobalFonts, loadImage, type Canvas } from '@napi-rs/canvas';
import { assetFontFamily, logoRect, safeArea, sceneBrand, type SceneBrand, type Size } from '../../../shared/scene/index.js';
import { EngineError, type RenderBrand } from '../types.js';

export interface LoadedBrand {
  scene: SceneBrand;
  /** The logo at its drawn size (null: none). */
  logo: Canvas | null;
}

const registered = new Set<string>();

/** Registers a font asset's file under its family name (once per process: an asset's bytes never change). */
function registerFontAsset(font: NonNullable<RenderBrand['font']>): void {
  if (registered.has(font.assetId)) return;
  if (!GlobalFonts.registerFromPath(font.path, assetFontFamily(font.assetId))) {
    throw new EngineError('invalid_input', `the brand's font (asset ${font.assetId}) cannot be read as a font`);
  }
  registered.add(font.assetId);
}

export async function loadBrand(brand: RenderBrand, size: Size): Promise<LoadedBrand> {
  if (brand.font) registerFontAsset(brand.font);
  const scene = sceneBrand(brand.brand, brand.logo ? brand.logo.width / brand.logo.height : null);
  let logo: Canvas | null = null;
  if (scene.logo && brand.logo) {
    const r = logoRect(scene.logo, size, safeArea(size));
    const image = await loadImage(await readFile(brand.logo.path));
    logo = createCanvas(Math.max(1, r.width), Math.max(1, r.height));
    logo.getContext('2d').drawImage(image, 0, 0, r.width, r.height);
  }
  return { scene, logo };
}
