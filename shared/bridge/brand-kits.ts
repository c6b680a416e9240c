// Brand kits: a company's look, named and kept by the app (electron/services/brand-kits.ts), applied
// to a draft as the contract's `brand` object (`kitBrand`), shared as one exported file. The kit
// names its logo and font assets by id plus their file names, so an imported kit re-links to the
// same files in the importer's media library (by id on the same render API, else by name).
import { z } from 'zod';
import { AssetId, BRAND_LIMITS, BrandLogo, CaptionStyle, HexColor, type Brand, type DocumentScene } from '../contract/index.js';

export const BrandKitId = z.string().regex(/^k_[A-Za-z0-9]{1,40}$/, 'is not a brand kit id');

/** A kit's font: one of the bundled faces (by id), or a font file of the media library. */
export const KitFont = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('bundled'), id: z.string().min(1).max(64) }),
  z.strictObject({ kind: z.literal('asset'), assetId: AssetId, name: z.string().max(255) }),
]);
export type KitFont = z.infer<typeof KitFont>;

const CardLine = z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** The fields a kit editor sends (every rule of the contract's Brand, said in words). */
export const BrandKitFields = z.strictObject({
  name: z.string({ error: 'must be a name' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  /** `name`: the logo file's, to re-link it in another media library. */
  logo: BrandLogo.extend({ name: z.string().max(255) }).nullable(),
  accentColor: HexColor.nullable(),
  captionStyle: CaptionStyle.nullable(),
  font: KitFont.nullable(),
  /** A title card's line and an end card's call to action (absent or null: no card). */
  intro: CardLine.nullable().optional(),
  outro: CardLine.nullable().optional(),
});
export type BrandKitFields = z.infer<typeof BrandKitFields>;

export const BrandKit = BrandKitFields.extend({ id: BrandKitId, updatedAt: z.string() });
export type BrandKit = z.infer<typeof BrandKit>;

/** What brandKits.save takes: a new kit (no id) or an existing one's new fields. */
export const BrandKitInput = BrandKitFields.extend({ id: BrandKitId.optional() });
export type BrandKitInput = z.infer<typeof BrandKitInput>;

export const BRAND_KIT_FILE_VERSION = 1;
/** The app's file of kits (brand-kits.json). Files of other versions are migrated on read (upgradeKitFile). */
export const BrandKitFile = z.strictObject({ version: z.literal(BRAND_KIT_FILE_VERSION), kits: z.array(BrandKit).max(200) });
export type BrandKitFile = z.infer<typeof BrandKitFile>;

/** A saved kits file of any version in the current shape, not yet checked (only version 1 exists so far). */
export function upgradeKitFile(raw: unknown): unknown {
  return raw;
}

export const BRAND_KIT_EXPORT_FORMAT = 'presenter-studio.brand-kit';
export const BRAND_KIT_EXPORT_VERSION = 1;
/** One kit as a file to share: its fields, the logo and font named by asset id and file name. */
export const BrandKitExport = z.strictObject({
  format: z.literal(BRAND_KIT_EXPORT_FORMAT, { error: 'is not a Presenter Studio brand kit' }),
  version: z.literal(BRAND_KIT_EXPORT_VERSION, { error: `this brand kit file is of another version (this app reads version ${BRAND_KIT_EXPORT_VERSION})` }),
  kit: BrandKitFields,
});
export type BrandKitExport = z.infer<typeof BrandKitExport>;

/** What an import says: the kit as saved, and what could not be re-linked (in words). */
export interface BrandKitImport {
  kit: BrandKit;
  notes: string[];
}

/** The contract's `brand` of a kit: what a draft (and every job made from it) carries. */
export function kitBrand(kit: BrandKitFields): Brand {
  return {
    ...(kit.logo ? { logo: { assetId: kit.logo.assetId, position: kit.logo.position, size: kit.logo.size } } : {}),
    ...(kit.accentColor ? { accentColor: kit.accentColor } : {}),
    ...(kit.captionStyle ? { captionStyle: kit.captionStyle } : {}),
    ...(kit.font ? { font: kit.font.kind === 'bundled' ? kit.font.id : kit.font.assetId } : {}),
  };
}

/** The scene ids of a kit's cards in a document: applying a kit again replaces them. */
export const CARD_SCENE_IDS = { intro: 'card-intro', outro: 'card-outro' } as const;
/** How long a card stays at least, in seconds (longer when its line takes longer to say). */
export const CARD_MIN_SECONDS = 3;

/**
 * A kit's title and end cards as ordinary scenes the creator can edit: the line as the scene's
 * narration (spoken, and shown in the brand's captions), the logo as its picture, no presenter.
 */
export function kitCards(kit: BrandKitFields): { intro: DocumentScene | null; outro: DocumentScene | null } {
  const card = (id: string, text: string | null | undefined): DocumentScene | null =>
    text
      ? {
          id, text, presenter: false, avatar: null, placements: {}, presenterId: null, transition: 'fade', minSeconds: CARD_MIN_SECONDS,
          background: kit.logo ? { assetId: kit.logo.assetId, fit: 'contain' } : null,
        }
      : null;
  return { intro: card(CARD_SCENE_IDS.intro, kit.intro), outro: card(CARD_SCENE_IDS.outro, kit.outro) };
}

export const BRAND_KIT_DEFAULT_LOGO_SIZE = 0.12;
export { BRAND_LIMITS };
