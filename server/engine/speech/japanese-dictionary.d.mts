export declare const DICTIONARY_FILES: Readonly<Record<string, { delta?: number; group?: number; fields?: number }>>;
export declare function dictionaryDir(): string;
export declare function packDictionary(dir: string): void;
export declare function loadTokenizer(dir?: string): Promise<{ tokenize(text: string): { surface_form: string; pronunciation?: string }[] }>;
