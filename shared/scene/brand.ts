// A brand over a scene (extension `brand`): its logo's place, its font and how its accent colour
// marks the captions. Every colour choice passes the contrast rule (contrast.ts): where the
// accent would not reach 4.5:1 against what is behind the text, a plate or an outline is added.
import type { Brand, CaptionStyle, LogoPosition } from '../contract/index.js';
import type { CaptionKind } from './catalog.js';
import { contrastOn, inkOn, MIN_CONTRAST } from './contrast.js';
import { assetFontFamily, brandFont } from './fonts.js';
import type { Rect, Size } from './types.js';

/** What the scene draws of a brand. */
export interface SceneBrand {
  accent: string | null;
  captionStyle: CaptionStyle | null;
  font: { family: string; weight: 'normal' | 'bold'; style: 'normal' | 'italic' } | null;
  /** The logo's corner, width as a fraction of the frame's, and its image's width / height. */
  logo: { position: LogoPosition; size: number; aspect: number } | null;
}

/**
 * The scene's view of a request's brand. `logoAspect`: the logo image's width / height (the
 * asset's; null when the brand has no logo). A font that is neither a bundled id nor an asset
 * id leaves the template's font (the server refused it before).
 */
export function sceneBrand(brand: Brand, logoAspect: number | null): SceneBrand {
  const bundled = brand.font ? brandFont(brand.font) : undefined;
  const font = bundled
    ? { family: bundled.family, weight: bundled.weight, style: bundled.style }
    : brand.font
      ? { family: assetFontFamily(brand.font), weight: 'normal' as const, style: 'normal' as const }
      : null;
  return {
    accent: brand.accentColor?.toLowerCase() ?? null,
    captionStyle: brand.captionStyle ?? null,
    font,
    logo: brand.logo && logoAspect ? { position: brand.logo.position, size: brand.logo.size, aspect: logoAspect } : null,
  };
}

/** Where the logo goes: its corner of the title-safe area, `size` of the frame's width wide. */
export function logoRect(logo: NonNullable<SceneBrand['logo']>, size: Size, safe: Rect): Rect {
  const width = Math.round(logo.size * size.width);
  const height = Math.round(width / logo.aspect);
  const left = logo.position.endsWith('left');
  const top = logo.position.startsWith('top');
  return {
    x: left ? safe.x : safe.x + safe.width - width,
    y: top ? safe.y : safe.y + safe.height - height,
    width,
    height,
  };
}

/** The colours a branded caption is drawn in. */
export interface BrandCaptionLook {
  /** The plate behind all the lines (the template's shape), or null: none (outline). */
  plate: string | null;
  text: string;
  /** Text outline (outline style), or null. */
  stroke: string | null;
  activeText: string;
  activeStroke: string | null;
  /** A plate behind the spoken word only, or null. */
  activePlate: string | null;
  /** The spoken word underlined in the text colour (the box style, where its colour cannot change). */
  activeUnderline: boolean;
  /** The template's decorative bar (lowerThird, card). */
  bar: string;
}

/** The plate a caption kind without one (chalk, big) gets under a brand's box or highlight. */
export const ADDED_PLATE = 'rgba(12,12,16,0.82)';

/** The caption style a template's kind stands for when a brand names only an accent colour. */
export const KIND_CAPTION_STYLE: Record<CaptionKind, CaptionStyle> = {
  lowerThird: 'highlight', chalk: 'highlight', pill: 'highlight', big: 'outline', subtitleBox: 'highlight', card: 'highlight',
};

/** Kinds whose template draws a plate behind the lines (the others write on the background). */
export const hasPlate = (kind: CaptionKind): boolean => kind !== 'chalk' && kind !== 'big';

/**
 * A branded caption's colours, or null when the brand changes nothing in it (no accent colour,
 * no caption style). `colors` are the template's.
 *   - box: the lines on a plate of the accent colour, in black or white (whichever reads);
 *   - outline: no plate; black or white text outlined in the accent colour, the spoken word the other way round;
 *   - highlight: the template's plate (or one added), the spoken word in the accent colour where that
 *     reads on the plate, else on a plate of the accent colour.
 */
export function brandCaptionLook(
  brand: SceneBrand | undefined, kind: CaptionKind, colors: { text: string; active: string; box: string; accent: string },
): BrandCaptionLook | null {
  if (!brand || (!brand.accent && !brand.captionStyle)) return null;
  const accent = brand.accent ?? colors.active;
  const mode = brand.captionStyle ?? KIND_CAPTION_STYLE[kind];
  if (mode === 'box') {
    const ink = inkOn(accent);
    return { plate: accent, text: ink, stroke: null, activeText: ink, activeStroke: null, activePlate: null, activeUnderline: true, bar: ink };
  }
  if (mode === 'outline') {
    const ink = inkOn(accent);
    return { plate: null, text: ink, stroke: accent, activeText: accent, activeStroke: ink, activePlate: null, activeUnderline: false, bar: accent };
  }
  const plate = hasPlate(kind) ? colors.box : ADDED_PLATE;
  const text = contrastOn(colors.text, plate) >= MIN_CONTRAST ? colors.text : inkOnPlate(plate);
  const reads = contrastOn(accent, plate) >= MIN_CONTRAST;
  return {
    plate, text, stroke: null,
    activeText: reads ? accent : inkOn(accent), activeStroke: null, activePlate: reads ? null : accent, activeUnderline: false, bar: accent,
  };
}

/** Black or white text on a (possibly translucent) plate: the one with more contrast at worst. */
function inkOnPlate(plate: string): string {
  return contrastOn('#000000', plate) >= contrastOn('#ffffff', plate) ? '#000000' : '#ffffff';
}
