export * from './schemas.js';
export * from './output.js';
export * from './zod-errors.js';
export * from './document.js';
export * from './breaks.js';
export * from './music-tracks.js';
