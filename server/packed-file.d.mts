export declare const PACKED_SUFFIX: string;
export declare function readPackedFile(path: string): Promise<Buffer<ArrayBuffer>>;
export declare function readPackedFileSync(path: string): Buffer<ArrayBuffer>;
export declare function packBytes(bytes: Buffer): Buffer;
