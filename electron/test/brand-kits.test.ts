// Brand kits on disk: saved in one versioned file and read back through its schema (a file the
// current version wrote opens; a damaged one is set aside, not trusted), shared as one file that
// re-links its logo and font in another media library by id, else by name, and says what it
// could not find.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Asset } from '../../shared/contract/index.js';
import { kitBrand, kitCards } from '../../shared/bridge/index.js';
import { BrandKitStore, type AssetFinder } from '../services/brand-kits.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ps-kits-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const asset = (id: string, name: string, kind: Asset['kind']): Asset => ({
  id, name, kind, mediaType: kind === 'font' ? 'font/ttf' : 'image/png', sizeBytes: 10, width: null, height: null, durationSeconds: null, pages: null,
  createdAt: '2026-11-26T00:00:00.000Z', contentUrl: '', thumbnailUrl: '',
});
const library = (...assets: Asset[]): AssetFinder => async ({ assetId, name, kind }) =>
  assets.find((a) => a.id === assetId && a.kind === kind) ?? assets.find((a) => a.name === name && a.kind === kind) ?? null;

const acme = {
  name: 'Acme',
  logo: { assetId: 'ast_LOGO', name: 'acme.png', position: 'top-left' as const, size: 0.15 },
  accentColor: '#E0218A',
  captionStyle: 'box' as const,
  font: { kind: 'asset' as const, assetId: 'ast_FONT', name: 'Brand.ttf' },
};

describe('brand kits', () => {
  it('saves kits in a versioned file and reads a version-1 file back', async () => {
    const store = new BrandKitStore(dir);
    const kit = await store.save(acme);
    const file = JSON.parse(readFileSync(join(dir, 'brand-kits.json'), 'utf8'));
    expect(file).toMatchObject({ version: 1, kits: [{ id: kit.id, name: 'Acme' }] });
    // A file written by hand in version 1's shape opens.
    writeFileSync(join(dir, 'brand-kits.json'), JSON.stringify({ version: 1, kits: [{ ...acme, id: 'k_old1', updatedAt: '2026-01-01T00:00:00.000Z' }] }));
    expect((await new BrandKitStore(dir).list()).map((k) => k.id)).toEqual(['k_old1']);
    expect(kitBrand(acme)).toEqual({ logo: { assetId: 'ast_LOGO', position: 'top-left', size: 0.15 }, accentColor: '#E0218A', captionStyle: 'box', font: 'ast_FONT' });
  });

  it('refuses a second kit of the same name, naming the field', async () => {
    const store = new BrandKitStore(dir);
    await store.save(acme);
    await expect(store.save({ ...acme, name: ' acme ' })).rejects.toMatchObject({ code: 'invalid_input', details: [{ path: 'name' }] });
  });

  it('sets a damaged file aside and starts empty', async () => {
    writeFileSync(join(dir, 'brand-kits.json'), JSON.stringify({ version: 1, kits: [{ name: 'no id' }] }));
    expect(await new BrandKitStore(dir).list()).toEqual([]);
    expect(existsSync(join(dir, 'brand-kits.json.corrupt'))).toBe(true);
  });

  it('exports one file; an import re-links by id, else by name, and says what is missing', async () => {
    const store = new BrandKitStore(dir);
    const kit = await store.save(acme);
    const { fileName, text } = await store.exportKit(kit.id);
    expect(fileName).toBe('Acme.brandkit.json');
    expect(JSON.parse(text)).toMatchObject({ format: 'presenter-studio.brand-kit', version: 1, kit: { name: 'Acme' } });

    const other = new BrandKitStore(mkdtempSync(join(dir, 'other-')));
    const byName = await other.importKit(text, library(asset('ast_MINE', 'acme.png', 'image'), asset('ast_F2', 'Brand.ttf', 'font')));
    expect(byName.notes).toEqual([]);
    expect(byName.kit).toMatchObject({ name: 'Acme', logo: { assetId: 'ast_MINE' }, font: { kind: 'asset', assetId: 'ast_F2' } });

    const missing = await other.importKit(text, library());
    expect(missing.kit).toMatchObject({ name: 'Acme (2)', logo: null, font: null, accentColor: '#E0218A' });
    expect(missing.notes).toEqual([
      'The logo "acme.png" is not in your media library: upload it and choose it in the kit.',
      'The font "Brand.ttf" is not in your media library: upload it and choose it in the kit.',
    ]);
  });

  it('refuses a file that is not a kit, in words', async () => {
    const store = new BrandKitStore(dir);
    await expect(store.importKit('{"hello": 1}', library())).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/not a brand kit this app can read/) });
    await expect(store.importKit('not json', library())).rejects.toMatchObject({ message: expect.stringMatching(/not JSON/) });
    const later = JSON.stringify({ format: 'presenter-studio.brand-kit', version: 2, kit: acme });
    await expect(store.importKit(later, library())).rejects.toMatchObject({ message: expect.stringMatching(/another version/) });
  });
});

describe('a kit\'s cards', () => {
  it('are scenes without the presenter over the logo, at least 3 s, and none without a line', () => {
    const cards = kitCards({ ...acme, intro: 'Acme update.', outro: null });
    expect(cards.outro).toBeNull();
    expect(cards.intro).toEqual({
      id: 'card-intro', text: 'Acme update.', presenter: false, presenterId: null, avatar: null, placements: {}, transition: 'fade', minSeconds: 3,
      background: { assetId: 'ast_LOGO', fit: 'contain' },
    });
  });
});
