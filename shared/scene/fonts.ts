// Fonts the scene uses, bundled under resources/fonts (no system fonts), so captions look
// the same in the video and in the browser preview. Node registers them with
// GlobalFonts.registerFromPath, the browser with FontFace from `fonts/<file>` beside the page
// (see docs/engine.md).
//
// A caption's font is a list (`fontStack`): emoji, Arabic and Hebrew first (their subsets hold
// only their own scripts, so they never take Latin text from DejaVu), then the style's DejaVu
// face (Latin, Cyrillic, Greek), then CJK. Both Skia and the browser pick, per character, the
// first font of the list that has it, and shape the text (Arabic joining, right to left).

export interface SceneFont {
  family: string;
  file: string;
  weight: 'normal' | 'bold';
  style: 'normal' | 'italic';
}

/** Family names of the script fonts (prefixed, so an installed Noto font of the same name never stands in). */
export const SCRIPT_FAMILIES = { emoji: 'PS Emoji', arabic: 'PS Arabic', hebrew: 'PS Hebrew', cjk: 'PS CJK' } as const;

export const SCENE_FONTS: readonly SceneFont[] = [
  { family: 'DejaVu Sans', file: 'DejaVuSans.ttf', weight: 'normal', style: 'normal' },
  { family: 'DejaVu Sans', file: 'DejaVuSans-Bold.ttf', weight: 'bold', style: 'normal' },
  { family: 'DejaVu Serif', file: 'DejaVuSerif-Italic.ttf', weight: 'normal', style: 'italic' },
  { family: SCRIPT_FAMILIES.arabic, file: 'NotoSansArabic-Regular.ttf', weight: 'normal', style: 'normal' },
  { family: SCRIPT_FAMILIES.arabic, file: 'NotoSansArabic-Bold.ttf', weight: 'bold', style: 'normal' },
  { family: SCRIPT_FAMILIES.hebrew, file: 'NotoSansHebrew-Regular.ttf', weight: 'normal', style: 'normal' },
  { family: SCRIPT_FAMILIES.hebrew, file: 'NotoSansHebrew-Bold.ttf', weight: 'bold', style: 'normal' },
  // One weight of CJK keeps the app small (see docs/engine.md); lighter styles use it too.
  { family: SCRIPT_FAMILIES.cjk, file: 'NotoSansCJKsc-Bold-subset.otf', weight: 'bold', style: 'normal' },
  { family: SCRIPT_FAMILIES.emoji, file: 'NotoColorEmoji-single.ttf', weight: 'normal', style: 'normal' },
];

/**
 * The URL folder, beside the page's index.html, where a page finds the fonts. The renderer build
 * copies none (the app would carry them twice): the desktop app's studio-app://, the web shell
 * and the preview's test servers serve resources/fonts there (electron/services/renderer-files.ts).
 */
export const FONTS_URL_DIR = 'fonts';

/** A font's URL relative to the page (FontFace resolves it against the document's base URL). */
export const fontUrl = (f: SceneFont): string => `./${FONTS_URL_DIR}/${f.file}`;

/** The CSS font-family list for text in a style's own family, covering every bundled script. */
export function fontStack(family: string): string {
  const { emoji, arabic, hebrew, cjk } = SCRIPT_FAMILIES;
  return [emoji, arabic, hebrew, family, cjk].map((f) => `"${f}"`).join(', ');
}

/** A face a brand may choose for its captions: one of the bundled ones, by id. */
export interface BrandFontFace {
  id: string;
  name: string;
  family: string;
  weight: 'normal' | 'bold';
  style: 'normal' | 'italic';
}

/** The bundled faces a brand's `font` may name (every one is in SCENE_FONTS). */
export const BRAND_FONTS: readonly BrandFontFace[] = [
  { id: 'sans', name: 'DejaVu Sans', family: 'DejaVu Sans', weight: 'normal', style: 'normal' },
  { id: 'sans-bold', name: 'DejaVu Sans Bold', family: 'DejaVu Sans', weight: 'bold', style: 'normal' },
  { id: 'serif-italic', name: 'DejaVu Serif Italic', family: 'DejaVu Serif', weight: 'normal', style: 'italic' },
];

export const brandFont = (id: string): BrandFontFace | undefined => BRAND_FONTS.find((f) => f.id === id);

/**
 * The family name a font asset is registered under (Skia's GlobalFonts, the browser's FontFace):
 * its id, prefixed, so no installed font answers to it.
 */
export const assetFontFamily = (assetId: string): string => `PS Font ${assetId}`;
