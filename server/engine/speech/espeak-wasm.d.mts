import type { EspeakEvent } from './speech.js';

/** Where espeak-ng.wasm and espeak-ng-data/ ship. */
export declare const ESPEAK_DIR: string;

export interface Espeak {
  sampleRate: number;
  /** Voice name with its variant ("en-us+f3"), rate in words per minute, pitch 0–99; throws on an unknown voice. */
  setVoice(name: string, rate: number, pitch: number): void;
  synthesize(text: string): { samples: Int16Array; sampleRate: number; events: EspeakEvent[] };
  /** The text's phonemes in IPA ('_' between phonemes), one clause per line. */
  ipa(text: string): string;
}

export declare function loadEspeak(options?: { dir?: string; onOpen?: (path: string) => void }): Promise<Espeak>;
