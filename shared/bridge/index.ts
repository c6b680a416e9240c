export * from './types.js';
export * from './methods.js';
export * from './brand-kits.js';
