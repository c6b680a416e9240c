// The look of each template: background painter, caption style and palette. Keyed by
// template id (resources/templates.json); an unknown id falls back to the studio look.
import { fontStack } from './fonts.js';

export type BackgroundKind = 'newsroom' | 'chalkboard' | 'stage' | 'social' | 'studio' | 'office';
export type CaptionKind = 'lowerThird' | 'chalk' | 'pill' | 'big' | 'subtitleBox' | 'card';

export interface SceneStyle {
  background: BackgroundKind;
  caption: CaptionKind;
  /** Presenter art id under resources/presenters. */
  presenterId: string;
  /** Caption font size as a fraction of the frame's short side. */
  captionScale: number;
  /** Most caption lines shown at once. */
  captionLines: number;
  /** Most words per caption line (big punchy captions keep lines short). */
  maxWordsPerLine: number;
  uppercase: boolean;
  font: { family: string; weight: 'normal' | 'bold'; style: 'normal' | 'italic' };
  colors: { text: string; active: string; box: string; accent: string };
}

const sans = { family: 'DejaVu Sans', weight: 'bold', style: 'normal' } as const;

export const SCENE_STYLES: Record<string, SceneStyle> = {
  newsroom: {
    background: 'newsroom', caption: 'lowerThird', presenterId: 'nora', captionScale: 0.05, captionLines: 2,
    maxWordsPerLine: 12, uppercase: false, font: sans,
    colors: { text: '#0f1b2d', active: '#ffffff', box: '#ffffff', accent: '#d7263d' },
  },
  classroom: {
    background: 'chalkboard', caption: 'chalk', presenterId: 'leo', captionScale: 0.058, captionLines: 2,
    maxWordsPerLine: 10, uppercase: false, font: { family: 'DejaVu Serif', weight: 'normal', style: 'italic' },
    colors: { text: 'rgba(245,245,235,0.92)', active: '#ffe066', box: 'rgba(0,0,0,0)', accent: '#ffe066' },
  },
  'product-launch': {
    background: 'stage', caption: 'pill', presenterId: 'maya', captionScale: 0.052, captionLines: 2,
    maxWordsPerLine: 10, uppercase: false, font: sans,
    colors: { text: '#ffffff', active: '#ffd23f', box: 'rgba(20,8,40,0.62)', accent: '#ff5e9c' },
  },
  'social-short': {
    background: 'social', caption: 'big', presenterId: 'sam', captionScale: 0.088, captionLines: 2,
    maxWordsPerLine: 3, uppercase: true, font: sans,
    colors: { text: '#ffffff', active: '#ffe600', box: 'rgba(0,0,0,0)', accent: '#111111' },
  },
  'podcast-studio': {
    background: 'studio', caption: 'subtitleBox', presenterId: 'iris', captionScale: 0.048, captionLines: 2,
    maxWordsPerLine: 10, uppercase: false, font: { family: 'DejaVu Sans', weight: 'normal', style: 'normal' },
    colors: { text: '#f3f0ea', active: '#ffb347', box: 'rgba(8,8,12,0.72)', accent: '#ff6b3d' },
  },
  'corporate-briefing': {
    background: 'office', caption: 'card', presenterId: 'omar', captionScale: 0.048, captionLines: 2,
    maxWordsPerLine: 11, uppercase: false, font: sans,
    colors: { text: '#1d2b3a', active: '#1f6feb', box: '#ffffff', accent: '#1f6feb' },
  },
};

export function sceneStyle(templateId: string): SceneStyle {
  return SCENE_STYLES[templateId] ?? SCENE_STYLES['podcast-studio']!;
}

/** CSS font string for a caption style at a pixel size. */
export function captionFont(style: SceneStyle, px: number): string {
  const { family, weight, style: fs } = style.font;
  return `${fs === 'italic' ? 'italic ' : ''}${weight === 'bold' ? 'bold ' : ''}${Math.round(px)}px ${fontStack(family)}`;
}
