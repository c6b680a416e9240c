// The template and voice catalogs, read from resources/ data. Internal fields (a template's
// look, a voice's `espeak`) stay on the server. Each voice answers to both id forms:
// locale-and-name and all digits. Templates come from shared/scene's validated catalog.
import { fileURLToPath } from 'node:url';
import type { Template, Voice } from '../shared/contract/index.js';
import { publicTemplate, TEMPLATES } from '../shared/scene/catalog.js';
import { catalogVoices, packOf } from './engine/speech/voices.js';

const RESOURCES = fileURLToPath(new URL('../resources/', import.meta.url));

export interface Catalog {
  templates: Template[];
  voices: Voice[];
  template(id: string): Template | undefined;
  /** The voice for either id form. */
  voice(id: string): Voice | undefined;
}

/** `dir` holds voices.json (default the bundled resources). */
export function loadCatalog(dir = RESOURCES): Catalog {
  const templates: Template[] = TEMPLATES.map((x) => publicTemplate(x, `/api/templates/${encodeURIComponent(x.id)}/thumbnail.jpg`));
  const voices: Voice[] = catalogVoices(dir).map((x) => {
    const pack = packOf(x);
    return {
    id: x.id,
    name: x.name,
    locale: x.locale,
    gender: x.gender,
    engine: x.engine,
    quality: x.quality,
    ...(x.pace ? { pace: x.pace } : {}),
    ...(pack ? { downloadBytes: pack.files.reduce((n, f) => n + f.bytes, 0), licence: pack.licence } : {}),
    sampleUrl: `/api/voices/${encodeURIComponent(x.id)}/sample`,
    aliases: [x.numericId],
    };
  });
  const templateById = new Map(templates.map((x) => [x.id, x]));
  const voiceById = new Map<string, Voice>();
  for (const voice of voices) {
    voiceById.set(voice.id, voice);
    for (const alias of voice.aliases ?? []) voiceById.set(alias, voice);
  }
  return {
    templates,
    voices,
    template: (id) => templateById.get(id),
    voice: (id) => voiceById.get(id),
  };
}
