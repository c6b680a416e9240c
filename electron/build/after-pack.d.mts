export declare const PACKED_FILES: readonly RegExp[];
export declare const PACKED_DICTIONARY: string;
export declare function packFiles(appDir: string): void;
export default function afterPack(context: unknown): Promise<void>;
