// Fonts the scene uses, bundled under resources/fonts (no system fonts), so captions look
// the same in the video and in the browser preview. Node registers them with
// GlobalFonts.registerFromPath, the browser with FontFace (see docs/engine.md).

export interface SceneFont {
  family: string;
  file: string;
  weight: 'normal' | 'bold';
  style: 'normal' | 'italic';
}

export const SCENE_FONTS: readonly SceneFont[] = [
  { family: 'DejaVu Sans', file: 'DejaVuSans.ttf', weight: 'normal', style: 'normal' },
  { family: 'DejaVu Sans', file: 'DejaVuSans-Bold.ttf', weight: 'bold', style: 'normal' },
  { family: 'DejaVu Serif', file: 'DejaVuSerif-Italic.ttf', weight: 'normal', style: 'italic' },
];
