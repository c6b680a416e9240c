export declare const PACKED_FILES: readonly string[];
export declare function packFiles(appDir: string): void;
export default function afterPack(context: unknown): Promise<void>;
