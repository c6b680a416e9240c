// Catalogs (templates, voices) from the render API, cached on disk per profile so drafting
// works offline; the bundled resources/ catalogs are the last fallback (and what a foreign
// API without catalog routes offers). Bundled templates come from shared/scene's validated
// catalog (built into the app).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Presenter, Template, Voice, VoiceList } from '../../shared/contract/index.js';
import { publicTemplate, TEMPLATES } from '../../shared/scene/catalog.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';

/** Presenters: absent from caches written before the `presenters` extension. */
export const RawCatalogs = z.object({ templates: z.array(Template), voices: z.array(Voice), presenters: z.array(Presenter).default([]) });
export type RawCatalogs = z.infer<typeof RawCatalogs>;

/** resources/voices.json as far as the bundled fallback needs it (each voice is then checked as a Voice). */
const BundledVoices = z.object({ voices: z.array(z.record(z.string(), z.unknown())) });

export async function readBundledCatalogs(resourcesDir: string): Promise<RawCatalogs> {
  try {
    const v = BundledVoices.parse(JSON.parse(await readFile(join(resourcesDir, 'voices.json'), 'utf8')));
    const templates = TEMPLATES.map((t) => publicTemplate(t, ''));
    const voices = VoiceList.parse({ voices: v.voices.map((x) => ({ sampleUrl: '', ...x })) }).voices;
    return { templates, voices, presenters: [] };
  } catch {
    return { templates: [], voices: [], presenters: [] };
  }
}

export class CatalogCache {
  constructor(private readonly dir: string) {}
  private file(profileId: string) {
    return join(this.dir, `${profileId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }
  async read(profileId: string): Promise<RawCatalogs | null> {
    return readJson(this.file(profileId), RawCatalogs, null);
  }
  write(profileId: string, c: RawCatalogs): Promise<void> {
    return writeJsonAtomic(this.file(profileId), c);
  }
}
