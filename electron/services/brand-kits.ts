// Brand kits: the app's named looks (logo, accent colour, caption style, font) in one versioned
// file, brand-kits.json, written atomically and read back through its schema (files of earlier
// versions migrate on read, `upgradeKitFile`). A kit is shared as one JSON file that names its
// logo and font by asset id and file name; an import re-links them to the importer's media
// library (the same id, else a file of the same name and kind) and says what it could not find.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import {
  BRAND_KIT_EXPORT_FORMAT, BRAND_KIT_EXPORT_VERSION, BRAND_KIT_FILE_VERSION, BrandKitExport, BrandKitFile, upgradeKitFile,
  type BrandKit, type BrandKitFields, type BrandKitImport, type BrandKitInput,
} from '../../shared/bridge/index.js';
import { issuesToDetails, type Asset, type AssetKind } from '../../shared/contract/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';
import { BridgeFailure } from './errors.js';

/** Finds an asset of the media library: by id, else by exact file name and kind; null when neither is there. */
export type AssetFinder = (ref: { assetId: string; name: string; kind: AssetKind }) => Promise<Asset | null>;

const KitsFile = z.preprocess(upgradeKitFile, BrandKitFile);

export class BrandKitStore {
  private readonly file: string;
  /** Changes run one after another (read, change, write), so two saves never lose one. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(dir: string) {
    this.file = join(dir, 'brand-kits.json');
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    // The previous change's failure was reported to its own caller; this one runs either way.
    const next = this.queue.then(work, work);
    this.queue = next;
    return next;
  }

  async list(): Promise<BrandKit[]> {
    return (await readJson(this.file, KitsFile, null))?.kits ?? [];
  }

  private async write(kits: BrandKit[]): Promise<void> {
    await writeJsonAtomic(this.file, { version: BRAND_KIT_FILE_VERSION, kits } satisfies BrandKitFile);
  }

  save(input: BrandKitInput): Promise<BrandKit> {
    return this.serial(async () => {
      const kits = await this.list();
      const { id: given, ...fields } = input;
      if (given && !kits.some((k) => k.id === given)) throw new BridgeFailure('not_found', `no brand kit "${given}"`);
      const name = fields.name.trim();
      if (kits.some((k) => k.id !== given && k.name.toLowerCase() === name.toLowerCase())) {
        throw new BridgeFailure('invalid_input', `a brand kit named "${name}" already exists`, [{ path: 'name', message: `"${name}" is already a kit's name` }]);
      }
      const kit: BrandKit = { ...fields, name, id: given ?? `k_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`, updatedAt: new Date().toISOString() };
      await this.write(given ? kits.map((k) => (k.id === given ? kit : k)) : [...kits, kit]);
      return kit;
    });
  }

  remove(id: string): Promise<void> {
    return this.serial(async () => {
      const kits = await this.list();
      if (!kits.some((k) => k.id === id)) throw new BridgeFailure('not_found', `no brand kit "${id}"`);
      await this.write(kits.filter((k) => k.id !== id));
    });
  }

  async exportKit(id: string): Promise<{ fileName: string; text: string }> {
    const kit = (await this.list()).find((k) => k.id === id);
    if (!kit) throw new BridgeFailure('not_found', `no brand kit "${id}"`);
    const { id: _id, updatedAt: _u, ...fields } = kit;
    const file: BrandKitExport = { format: BRAND_KIT_EXPORT_FORMAT, version: BRAND_KIT_EXPORT_VERSION, kit: fields };
    const safe = kit.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().slice(0, 80) || 'brand-kit';
    return { fileName: `${safe}.brandkit.json`, text: `${JSON.stringify(file, null, 2)}\n` };
  }

  /** Reads a shared kit file (checked against its schema), re-links its logo and font, and saves it (a name taken gets a number). */
  async importKit(text: string, find: AssetFinder): Promise<BrandKitImport> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new BridgeFailure('invalid_input', 'this file is not a brand kit (it is not JSON)', [{ path: 'file', message: 'is not JSON' }]);
    }
    const parsed = BrandKitExport.safeParse(raw);
    if (!parsed.success) {
      const details = issuesToDetails(parsed.error);
      throw new BridgeFailure('invalid_input', `this file is not a brand kit this app can read: ${details.map((d) => `${d.path} ${d.message}`).slice(0, 3).join('; ')}`, details);
    }
    const fields: BrandKitFields = { ...parsed.data.kit };
    const notes: string[] = [];
    if (fields.logo) {
      const found = await find({ assetId: fields.logo.assetId, name: fields.logo.name, kind: 'image' });
      if (found) fields.logo = { ...fields.logo, assetId: found.id, name: found.name };
      else {
        notes.push(`The logo "${fields.logo.name}" is not in your media library: upload it and choose it in the kit.`);
        fields.logo = null;
      }
    }
    if (fields.font?.kind === 'asset') {
      const found = await find({ assetId: fields.font.assetId, name: fields.font.name, kind: 'font' });
      if (found) fields.font = { kind: 'asset', assetId: found.id, name: found.name };
      else {
        notes.push(`The font "${fields.font.name}" is not in your media library: upload it and choose it in the kit.`);
        fields.font = null;
      }
    }
    const names = new Set((await this.list()).map((k) => k.name.toLowerCase()));
    let name = fields.name;
    for (let n = 2; names.has(name.toLowerCase()); n++) name = `${fields.name} (${n})`;
    return { kit: await this.save({ ...fields, name }), notes };
  }
}
