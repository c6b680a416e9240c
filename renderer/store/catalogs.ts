// Templates and voices from the active render API (or its last cache when offline).
import { create } from 'zustand';
import type { Template, Voice } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';

/** Voices may carry their other id form(s), e.g. the numeric "101" for "en-US-Ava". */
export type CatalogVoice = Voice & { aliases?: string[]; numericId?: string };

interface CatalogsState {
  templates: Template[];
  voices: CatalogVoice[];
  fromCache: boolean;
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
}

export const useCatalogs = create<CatalogsState>((set) => ({
  templates: [],
  voices: [],
  fromCache: false,
  loaded: false,
  error: null,
  async load() {
    try {
      const c = await call('catalogs.get', undefined);
      set({ templates: c.templates, voices: c.voices, fromCache: c.fromCache, loaded: true, error: null });
    } catch (e) {
      set({ loaded: true, error: describeError(e) });
    }
  },
}));

export function voiceIds(v: CatalogVoice): string[] {
  return [v.id, ...(v.aliases ?? []), ...(v.numericId ? [v.numericId] : [])];
}

/** Finds a voice by either id form. */
export function findVoice(voices: CatalogVoice[], id: string | null | undefined): CatalogVoice | null {
  if (!id) return null;
  return voices.find((v) => voiceIds(v).includes(id)) ?? null;
}

export function findTemplate(templates: Template[], id: string | null | undefined): Template | null {
  return templates.find((t) => t.id === id) ?? null;
}
