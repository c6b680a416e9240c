// The part of kuromoji's API (no types of its own) that japanese-readings.ts uses.
declare module 'kuromoji' {
  export interface IpadicToken {
    surface_form: string;
    /** Katakana as said ("トーキョー", particle は as "ワ"); absent for unknown words. */
    pronunciation?: string;
    reading?: string;
  }
  export interface Tokenizer {
    tokenize(text: string): IpadicToken[];
  }
  export function builder(options: { dicPath: string }): { build(callback: (err: Error | null, tokenizer: Tokenizer) => void): void };
  const kuromoji: { builder: typeof builder };
  export default kuromoji;
}
