// The look of a template as the scene draws it: the catalog entry's `scene` block
// (resources/templates.json, validated in catalog.ts) with the entry's presenter.
import { templateEntry, type SceneLook, type TemplateEntry } from './catalog.js';
import type { SceneBrand } from './brand.js';
import { fontStack } from './fonts.js';

export type { BackgroundKind, CaptionKind } from './catalog.js';

export interface SceneStyle extends SceneLook {
  /** Presenter art id under resources/presenters (the entry's presenter). */
  presenterId: string;
  /** Extension `brand`: the brand over the template's look (its font is already in `font`). */
  brand?: SceneBrand;
}

/** The look of a catalog entry. */
export function styleOf(t: TemplateEntry): SceneStyle {
  return { ...t.scene, presenterId: t.presenter.id };
}

/** The look of a bundled template; an unknown id is an error (the caller decides what to show instead). */
export function sceneStyle(templateId: string): SceneStyle {
  const t = templateEntry(templateId);
  if (!t) throw new Error(`Unknown template "${templateId}".`);
  return styleOf(t);
}

/** CSS font string for a caption style at a pixel size. */
export function captionFont(style: SceneStyle, px: number): string {
  const { family, weight, style: fs } = style.font;
  return `${fs === 'italic' ? 'italic ' : ''}${weight === 'bold' ? 'bold ' : ''}${Math.round(px)}px ${fontStack(family)}`;
}
