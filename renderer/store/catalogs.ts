// Templates and voices from the active render API (or its last cache when offline).
import { VoiceQuality, type Presenter, type Template, type Voice } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import { knowPresenters } from '../canvas/photo-rigs.js';
import type { SliceApi } from './slice.js';

/** Voices may carry their other id form(s), e.g. the numeric "101" for "en-US-Ava". */
export type CatalogVoice = Voice & { aliases?: string[]; numericId?: string };

export interface CatalogsState {
  templates: Template[];
  voices: CatalogVoice[];
  /** The API's presenters (empty without the `presenters` extension). */
  presenters: Presenter[];
  fromCache: boolean;
  loaded: boolean;
  error: string | null;
  load(): Promise<void>;
  /** A presenter made in the app (a photo presenter), listed until the next load brings it. */
  addPresenter(p: Presenter): void;
}

export const createCatalogsSlice = ({ set, get }: SliceApi<CatalogsState>): CatalogsState => ({
  templates: [],
  voices: [],
  presenters: [],
  fromCache: false,
  loaded: false,
  error: null,
  async load() {
    try {
      const c = await call('catalogs.get', undefined);
      knowPresenters(c.presenters);
      set({ templates: c.templates, voices: c.voices, presenters: c.presenters, fromCache: c.fromCache, loaded: true, error: null });
    } catch (e) {
      set({ loaded: true, error: describeError(e) });
    }
  },
  addPresenter(p) {
    knowPresenters([p]);
    set({ presenters: [...get().presenters.filter((x) => x.id !== p.id), p] });
  },
});

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

/**
 * A new draft's voice: what a creator hears first, so the best-sounding voice that ships with the
 * app (no pack to download) in the first of the user's languages that has one (exact locale
 * first, then the same language: "fr-CA" finds fr-FR), else in American English, else the first.
 */
export function defaultVoice(voices: CatalogVoice[], languages: readonly string[]): CatalogVoice | null {
  const shipped = voices.filter((v) => v.downloadBytes === undefined);
  const rank = (v: CatalogVoice) => VoiceQuality.options.indexOf(v.quality ?? 'basic');
  const best = (match: (locale: string) => boolean) =>
    shipped.filter((v) => match(v.locale.toLowerCase())).reduce<CatalogVoice | null>((b, v) => (!b || rank(v) > rank(b) ? v : b), null);
  for (const tag of [...languages, 'en-US']) {
    const lang = tag.toLowerCase();
    const found = best((l) => l === lang) ?? best((l) => l.split('-')[0] === lang.split('-')[0]);
    if (found) return found;
  }
  return voices[0] ?? null;
}
