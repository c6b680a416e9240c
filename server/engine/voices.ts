// The voice catalog's espeak settings (resources/voices.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESOURCES_DIR } from './assets.js';

export interface EspeakVoice {
  voice: string;
  variant?: string;
  pitch: number;
  rate: number;
}

interface CatalogVoice {
  id: string;
  numericId: string;
  espeak: EspeakVoice;
}

let catalog: CatalogVoice[] | null = null;

function voices(): CatalogVoice[] {
  catalog ??= (JSON.parse(readFileSync(join(RESOURCES_DIR, 'voices.json'), 'utf8')) as { voices: CatalogVoice[] }).voices;
  return catalog;
}

/** espeak settings of a catalog voice (canonical or numeric id), or null when unknown. */
export function espeakVoice(voiceId: string): EspeakVoice | null {
  const v = voices().find((x) => x.id === voiceId || x.numericId === voiceId);
  return v ? v.espeak : null;
}
