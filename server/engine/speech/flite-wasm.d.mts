export declare const FLITE_VOICES: readonly string[];
export interface Flite {
  /** 16-bit mono PCM of `text` in `voice`; `stretch` > 1 speaks slower. */
  synthesize(text: string, voice: string, stretch?: number): { samples: Int16Array; sampleRate: number };
}
export declare function loadFlite(): Promise<Flite>;
export declare function readWav(wav: Buffer): { samples: Int16Array; sampleRate: number };
