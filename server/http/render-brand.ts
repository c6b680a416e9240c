// Extension `brand`: a render request's brand checked against the bundled fonts and the caller's
// assets (the logo must be a picture of theirs, the font a bundled one or a font asset of
// theirs). Each problem is a detail naming its field (`brand.logo.assetId`, `brand.font`).
import type { Brand, ErrorDetail } from '../../shared/contract/index.js';
import { BRAND_FONTS, brandFont } from '../../shared/scene/fonts.js';
import type { AssetStore } from '../assets/asset-store.js';

export async function checkBrand(brand: Brand, ctx: { assets: AssetStore; userId: string }, details: ErrorDetail[]): Promise<void> {
  if (brand.logo) {
    const asset = await ctx.assets.get(brand.logo.assetId, ctx.userId);
    if (!asset) details.push({ path: 'brand.logo.assetId', message: `no asset "${brand.logo.assetId}" of yours; see GET /api/assets` });
    else if (asset.kind !== 'image') details.push({ path: 'brand.logo.assetId', message: `"${asset.name}" is not a picture; a logo is a PNG, JPEG or WebP image` });
  }
  if (brand.font && !brandFont(brand.font)) {
    const asset = await ctx.assets.get(brand.font, ctx.userId);
    const bundled = BRAND_FONTS.map((f) => f.id).join(', ');
    if (!asset) details.push({ path: 'brand.font', message: `unknown font "${brand.font}"; one of ${bundled}, or the id of a font you uploaded (TTF, OTF, WOFF2)` });
    else if (asset.kind !== 'font') details.push({ path: 'brand.font', message: `"${asset.name}" is not a font; one of ${bundled}, or the id of a font you uploaded` });
  }
}
