export * from './types.js';
export * from './methods.js';
