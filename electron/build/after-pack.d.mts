export declare const PACKED_FILES: readonly RegExp[];
export declare const PACKED_DICTIONARY: string;
export declare const MINIFIED_FILES: RegExp;
export declare function minifyFiles(appDir: string): void;
export declare function packFiles(appDir: string): void;
export default function afterPack(context: unknown): Promise<void>;
