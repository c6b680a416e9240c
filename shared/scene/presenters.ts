// The presenter art manifest. Each presenter is a set of SVG layers in
// resources/presenters/<id>/ that share one viewBox, so layers stack on the same box:
//   hair-back  (behind the body, moves with the head)
//   body       (torso, neck; static apart from breathing)
//   head       (face without eyes and mouth, hair; idle motion)
//   eyes-open / eyes-closed (blinking)
//   mouth-<viseme> (one per mouth shape)
import { z } from 'zod';
import cast from '../../resources/presenters.json' with { type: 'json' };
import { Gender } from '../contract/index.js';
import { PRESENTER_BOUNDS } from './presenter-bounds.js';
import { VISEMES, type ImageLike, type Rect, type Viseme } from './types.js';

export const ART_WIDTH = 400;
export const ART_HEIGHT = 480;

/** A built-in presenter: who the art in resources/presenters/<id>/ shows (resources/presenters.json, written with the art). */
export const CastEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{1,64}$/).refine((id) => id in PRESENTER_BOUNDS, { message: 'must have art (see presenter-bounds.ts)' }),
  name: z.string().min(1),
  /** How the presenter reads: voices of this gender suit them. */
  gender: Gender,
  age: z.enum(['young', 'adult', 'older']),
});
export type CastEntry = z.infer<typeof CastEntry>;

/** The built-in presenters, validated when first imported. */
export const CAST: readonly CastEntry[] = z.strictObject({ presenters: z.array(CastEntry).min(1) }).parse(cast).presenters;
export const PRESENTER_IDS: readonly string[] = CAST.map((p) => p.id);
const castById = new Map(CAST.map((p) => [p.id, p]));
/** A built-in presenter by id, or undefined. */
export const castEntry = (id: string): CastEntry | undefined => castById.get(id);

export type PresenterPart = 'hair-back' | 'body' | 'head' | 'eyes-open' | 'eyes-closed' | `mouth-${Viseme}`;
export const PRESENTER_PARTS: readonly PresenterPart[] = [
  'hair-back', 'body', 'head', 'eyes-open', 'eyes-closed', ...VISEMES.map((v) => `mouth-${v}` as const),
];

export interface PresenterArt {
  id: string;
  width: number;
  height: number;
  /** Painted pixels at rest, in art units (measured from the art, see presenter-bounds.ts). */
  contentBounds: Rect;
  /** Painted pixels of the layers that move (hair, head, eyes, every mouth), in art units at rest. */
  movingBounds: Rect;
}

export function presenterArt(id: string): PresenterArt {
  const full = { x: 0, y: 0, width: ART_WIDTH, height: ART_HEIGHT };
  const b = PRESENTER_BOUNDS[id];
  return { id, width: ART_WIDTH, height: ART_HEIGHT, contentBounds: b?.content ?? full, movingBounds: b?.moving ?? full };
}

/** File name of a part inside resources/presenters/<id>/. */
export const partFile = (part: PresenterPart): string => `${part}.svg`;

/** Loaded layers of one presenter, ready for drawPresenter. */
export interface PresenterAssets {
  art: PresenterArt;
  parts: Record<PresenterPart, ImageLike>;
}

/**
 * Loads every layer of a presenter with a platform loader: in the browser an
 * HTMLImageElement from a (Vite) URL, in Node @napi-rs/canvas loadImage from the file.
 */
export async function loadPresenter(
  id: string,
  load: (part: PresenterPart, file: string) => Promise<ImageLike>,
): Promise<PresenterAssets> {
  const entries = await Promise.all(PRESENTER_PARTS.map(async (p) => [p, await load(p, `${id}/${partFile(p)}`)] as const));
  return { art: presenterArt(id), parts: Object.fromEntries(entries) as Record<PresenterPart, ImageLike> };
}
