// shared/scene: layout and drawing of one frame on any Canvas 2D context. Imported by the
// render engine (Node, @napi-rs/canvas) and the app's canvas preview (browser).
export * from './types.js';
export * from './catalog.js';
export * from './styles.js';
export * from './fonts.js';
export * from './presenters.js';
export * from './layout.js';
export * from './animation.js';
export * from './captions.js';
export * from './scripts.js';
export * from './backgrounds.js';
export * from './draw.js';
export * from './rig.js';
