// The template catalog, resources/templates.json: the one source of every template fact (name,
// presenter, aspect ratios, default parameters and the scene's look), validated once here and
// read through this module by the server, the engine, the preview and the desktop client.
// Adding a template is one JSON entry (plus art, for a new presenter or background painter).
import { z } from 'zod';
import bundled from '../../resources/templates.json' with { type: 'json' };
import { AspectRatio, describeDetails, issuesToDetails, RenderParams, Template, templatePlacement, type RenderParamsInput } from '../contract/index.js';
import { SCENE_FONTS } from './fonts.js';
import { PRESENTER_BOUNDS } from './presenter-bounds.js';

/** Background painters (code, in backgrounds.ts), named by the catalog. */
export const BACKGROUND_KINDS = ['newsroom', 'chalkboard', 'stage', 'social', 'studio', 'office'] as const;
export type BackgroundKind = (typeof BACKGROUND_KINDS)[number];
/** Caption styles drawn by drawCaption. */
export const CAPTION_KINDS = ['lowerThird', 'chalk', 'pill', 'big', 'subtitleBox', 'card'] as const;
export type CaptionKind = (typeof CAPTION_KINDS)[number];

const Color = z.string().regex(/^(#[0-9a-fA-F]{6}|rgba?\([\d.,\s]+\))$/, 'must be #rrggbb or rgb()/rgba()');

/** A template's look: background painter, caption style and palette. */
export const SceneLook = z.strictObject({
  background: z.enum(BACKGROUND_KINDS),
  caption: z.enum(CAPTION_KINDS),
  /** Caption font size as a fraction of the frame's short side. */
  captionScale: z.number().min(0.02).max(0.15),
  /** Most caption lines shown at once. */
  captionLines: z.number().int().min(1).max(4),
  /** Most words per caption line (big punchy captions keep lines short). */
  maxWordsPerLine: z.number().int().min(1).max(20),
  uppercase: z.boolean(),
  font: z
    .strictObject({ family: z.string(), weight: z.enum(['normal', 'bold']), style: z.enum(['normal', 'italic']) })
    .refine((f) => SCENE_FONTS.some((s) => s.family === f.family && s.weight === f.weight && s.style === f.style), {
      message: 'must be a face bundled in resources/fonts (SCENE_FONTS)',
    }),
  colors: z.strictObject({ text: Color, active: Color, box: Color, accent: Color }),
});
export type SceneLook = z.infer<typeof SceneLook>;

/** One catalog entry: the contract's template (without its served thumbnail URL) and its look. */
export const TemplateEntry = Template.omit({ thumbnailUrl: true })
  .extend({
    id: z.string().regex(/^[a-z0-9-]{1,64}$/),
    presenter: z.strictObject({
      id: z.string().refine((id) => id in PRESENTER_BOUNDS, { message: 'must be a presenter under resources/presenters (see presenter-bounds.ts)' }),
      name: z.string().min(1),
    }),
    aspectRatios: z.array(AspectRatio).min(1),
    defaults: RenderParams,
    scene: SceneLook,
  })
  .strict()
  .refine((t) => t.aspectRatios.includes(t.defaults.aspectRatio), { message: 'defaults.aspectRatio must be one of aspectRatios', path: ['defaults', 'aspectRatio'] })
  .refine((t) => Object.keys(t.placements ?? {}).every((r) => t.aspectRatios.includes(r as AspectRatio)), {
    message: 'placements may only name the template\'s aspectRatios', path: ['placements'],
  });
export type TemplateEntry = z.infer<typeof TemplateEntry>;

export const TemplateFile = z.strictObject({ templates: z.array(TemplateEntry).min(1) }).superRefine((c, ctx) => {
  const seen = new Set<string>();
  c.templates.forEach((t, i) => {
    if (seen.has(t.id)) ctx.addIssue({ code: 'custom', path: ['templates', i, 'id'], message: `id "${t.id}" is used twice` });
    seen.add(t.id);
  });
});

/** Validates a catalog (the file's parsed JSON); a bad one throws an error naming every wrong field. */
export function parseTemplateCatalog(raw: unknown, source = 'templates.json'): TemplateEntry[] {
  const parsed = TemplateFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${source} is not a valid template catalog: ${describeDetails(issuesToDetails(parsed.error))}`);
  }
  return parsed.data.templates;
}

/** The bundled catalog (resources/templates.json), validated when first imported. */
export const TEMPLATES: readonly TemplateEntry[] = parseTemplateCatalog(bundled, 'resources/templates.json');
const byId = new Map(TEMPLATES.map((t) => [t.id, t]));

/** A bundled template by id, or undefined. */
export function templateEntry(id: string): TemplateEntry | undefined {
  return byId.get(id);
}

/** The contract's view of an entry (what GET /api/templates serves, with the given thumbnail URL). */
export function publicTemplate(t: TemplateEntry, thumbnailUrl: string): Template {
  const { id, name, description, presenter, aspectRatios, defaults, placements } = t;
  return {
    id, name, description, presenter: { ...presenter }, aspectRatios: [...aspectRatios], defaults: structuredClone(defaults),
    ...(placements ? { placements: structuredClone(placements) } : {}), thumbnailUrl,
  };
}

/** Parameters where neither the request nor a known template says anything. */
export const FALLBACK_PARAMS: RenderParams = { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.5, y: 0.58 } };

/**
 * Full render parameters: every field the partial parameters leave out is taken from the
 * template's defaults (the contract's rule, docs/render-api.md). `templates` is the catalog the
 * id belongs to (the bundled one unless a render API served another); an unknown template
 * falls back to FALLBACK_PARAMS.
 */
export function fillParams(
  templateId: string | null | undefined,
  partial: RenderParamsInput | undefined,
  templates: readonly Pick<Template, 'id' | 'defaults' | 'placements'>[] = TEMPLATES,
): RenderParams {
  const template = templates.find((t) => t.id === templateId);
  const base = template?.defaults ?? FALLBACK_PARAMS;
  const aspectRatio = partial?.aspectRatio ?? base.aspectRatio;
  // The placement made for this aspect ratio (see templatePlacement).
  const at = template ? templatePlacement(template, aspectRatio) : base.avatar;
  const avatar = partial?.avatar ?? {};
  return {
    aspectRatio,
    avatar: { scale: avatar.scale ?? at.scale, x: avatar.x ?? at.x, y: avatar.y ?? at.y },
  };
}
