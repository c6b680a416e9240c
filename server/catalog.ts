// The template and voice catalogs, read from resources/ data. Internal fields (e.g. `espeak`)
// stay on the server. Each voice answers to both id forms: locale-and-name and all digits.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AspectRatio, RenderParams, Template, Voice } from '../shared/contract/index.js';
import { catalogVoices } from './engine/voices.js';

const RESOURCES = fileURLToPath(new URL('../resources/', import.meta.url));

type TemplateData = Omit<Template, 'thumbnailUrl'>;

export interface Catalog {
  templates: Template[];
  voices: Voice[];
  template(id: string): Template | undefined;
  /** The voice for either id form. */
  voice(id: string): Voice | undefined;
  /** Template defaults under the requested overrides. */
  fillParams(template: Template, params: { aspectRatio?: AspectRatio; avatar?: Partial<RenderParams['avatar']> } | undefined): RenderParams;
}

export function loadCatalog(dir = RESOURCES): Catalog {
  const t = JSON.parse(readFileSync(`${dir}/templates.json`, 'utf8')) as { templates: TemplateData[] };
  const templates: Template[] = t.templates.map((x) => ({
    id: x.id,
    name: x.name,
    description: x.description,
    presenter: { id: x.presenter.id, name: x.presenter.name },
    aspectRatios: x.aspectRatios,
    defaults: x.defaults,
    thumbnailUrl: `/api/templates/${encodeURIComponent(x.id)}/thumbnail.jpg`,
  }));
  const voices: Voice[] = catalogVoices(dir).map((x) => ({
    id: x.id,
    name: x.name,
    locale: x.locale,
    gender: x.gender,
    engine: x.engine,
    quality: x.quality,
    ...(x.piper ? { downloadBytes: x.piper.files.reduce((n, f) => n + f.bytes, 0) } : {}),
    sampleUrl: `/api/voices/${encodeURIComponent(x.id)}/sample`,
    aliases: [x.numericId],
  }));
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
    fillParams: (template, params) => ({
      aspectRatio: params?.aspectRatio ?? template.defaults.aspectRatio,
      avatar: { ...template.defaults.avatar, ...stripUndefined(params?.avatar ?? {}) },
    }),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
