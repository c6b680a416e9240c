// Colour contrast as WCAG 2 defines it (relative luminance of sRGB, ratio (L1 + 0.05) / (L2 +
// 0.05)): the rule that keeps caption text readable whatever a brand's accent colour is.

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0–1. */
  a: number;
}

/** `#rrggbb`, `rgb(r,g,b)` or `rgba(r,g,b,a)` (what the catalog and a brand write). */
export function parseColor(css: string): Rgba {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(css);
  if (hex) return { r: parseInt(hex[1]!, 16), g: parseInt(hex[2]!, 16), b: parseInt(hex[3]!, 16), a: 1 };
  const fn = /^rgba?\(([^)]*)\)$/.exec(css.replace(/\s+/g, ''));
  const parts = fn?.[1]!.split(',').map(Number);
  if (!parts || parts.length < 3 || parts.some((n) => !Number.isFinite(n))) throw new Error(`not a colour: ${css}`);
  return { r: parts[0]!, g: parts[1]!, b: parts[2]!, a: parts[3] ?? 1 };
}

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};

/** Relative luminance of an opaque colour (alpha ignored). */
export function luminance(c: Pick<Rgba, 'r' | 'g' | 'b'>): number {
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

/** The contrast ratio of two opaque colours, 1–21. */
export function contrastRatio(a: Pick<Rgba, 'r' | 'g' | 'b'>, b: Pick<Rgba, 'r' | 'g' | 'b'>): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** `top` painted over an opaque `under`. */
export function over(top: Rgba, under: Pick<Rgba, 'r' | 'g' | 'b'>): Rgba {
  const k = top.a;
  return { r: top.r * k + under.r * (1 - k), g: top.g * k + under.g * (1 - k), b: top.b * k + under.b * (1 - k), a: 1 };
}

const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };
const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/**
 * The least contrast of text in colour `text` on a plate of colour `plate`, whatever lies under
 * the plate (a translucent plate is checked over black and over white, the extremes; a
 * transparent one therefore never passes).
 */
export function contrastOn(text: string, plate: string): number {
  const t = parseColor(text);
  const p = parseColor(plate);
  return Math.min(...[BLACK, WHITE].map((under) => contrastRatio(over(t, over(p, under)), over(p, under))));
}

/** The WCAG AA ratio for body text: what captions must reach against what is directly behind them. */
export const MIN_CONTRAST = 4.5;

/** Black or white, whichever reads better on an opaque colour (one of them always reaches 4.5:1). */
export function inkOn(color: string): '#000000' | '#ffffff' {
  const c = parseColor(color);
  return contrastRatio(c, BLACK) >= contrastRatio(c, WHITE) ? '#000000' : '#ffffff';
}
