// Draws the cast: writes resources/presenters/<id>/*.svg (layers that share one viewBox),
// resources/presenters.json (who they are: name, gender, age) and
// shared/scene/presenter-bounds.ts (the painted bounds measured from the art).
// Run: npx tsx tools/engine/presenter-art.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { ART_HEIGHT, ART_WIDTH, PRESENTER_PARTS, type PresenterPart } from '../../shared/scene/presenters.js';
import type { Rect } from '../../shared/scene/types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

type Hair = 'bob' | 'curly' | 'long' | 'quiff' | 'bangs' | 'short' | 'afro' | 'bun' | 'bald' | 'hijab' | 'locs' | 'buzz';
type Outfit = 'blazer' | 'sweater' | 'top' | 'hoodie' | 'turtleneck' | 'suit';

interface Look {
  name: string;
  gender: 'female' | 'male' | 'neutral';
  age: 'young' | 'adult' | 'older';
  skin: string;
  skinShade: string;
  hair: string;
  hairShade: string;
  hairStyle: Hair;
  outfit: Outfit;
  cloth: string;
  clothShade: string;
  inner: string;
  eyes: string;
  lips: string;
  glasses?: boolean;
  beard?: boolean;
  earrings?: boolean;
  headphones?: boolean;
  freckles?: boolean;
  /** Lines on the forehead and beside the mouth. */
  lines?: boolean;
}

const LOOKS: Record<string, Look> = {
  nora: { name: 'Nora', gender: 'female', age: 'adult', skin: '#f2c9a8', skinShade: '#dfa986', hair: '#4a2c1d', hairShade: '#321d12', hairStyle: 'bob', outfit: 'blazer',
    cloth: '#c8283d', clothShade: '#9c1c2e', inner: '#fbf7f2', eyes: '#5a3a22', lips: '#c45a5a', earrings: true },
  leo: { name: 'Leo', gender: 'male', age: 'adult', skin: '#e3b08c', skinShade: '#c98f6c', hair: '#6b4a2e', hairShade: '#4e341f', hairStyle: 'curly', outfit: 'sweater',
    cloth: '#3f7d5a', clothShade: '#2e5e43', inner: '#e9e1d3', eyes: '#4a6b3a', lips: '#b8705e', glasses: true, beard: true },
  maya: { name: 'Maya', gender: 'female', age: 'adult', skin: '#c98d66', skinShade: '#ad714e', hair: '#1f1612', hairShade: '#0f0a08', hairStyle: 'long', outfit: 'top',
    cloth: '#2d2a6e', clothShade: '#1f1d52', inner: '#ffd23f', eyes: '#3b2416', lips: '#a8474f', earrings: true },
  sam: { name: 'Sam', gender: 'male', age: 'young', skin: '#f6d3b8', skinShade: '#e2b392', hair: '#d9a441', hairShade: '#b5832c', hairStyle: 'quiff', outfit: 'hoodie',
    cloth: '#ff5e5b', clothShade: '#d8403f', inner: '#ffffff', eyes: '#3a6ea5', lips: '#c76b63', freckles: true },
  iris: { name: 'Iris', gender: 'female', age: 'young', skin: '#f4cfb3', skinShade: '#e0ad8c', hair: '#a8432a', hairShade: '#7d2f1c', hairStyle: 'bangs', outfit: 'turtleneck',
    cloth: '#3b3f58', clothShade: '#2a2d42', inner: '#3b3f58', eyes: '#4f7a4a', lips: '#b9545a', headphones: true, freckles: true },
  omar: { name: 'Omar', gender: 'male', age: 'adult', skin: '#8f5b3c', skinShade: '#764630', hair: '#17110d', hairShade: '#0a0705', hairStyle: 'short', outfit: 'suit',
    cloth: '#23344f', clothShade: '#18253a', inner: '#eef3f8', eyes: '#2b1a10', lips: '#6e3a2c', beard: true, glasses: true },
  amara: { name: 'Amara', gender: 'female', age: 'adult', skin: '#6b4330', skinShade: '#553325', hair: '#1a120e', hairShade: '#0c0806', hairStyle: 'afro', outfit: 'blazer',
    cloth: '#e0a526', clothShade: '#b9831a', inner: '#1f2a36', eyes: '#2a170d', lips: '#7a3b34', earrings: true },
  kenji: { name: 'Kenji', gender: 'male', age: 'young', skin: '#efcba6', skinShade: '#d9ad86', hair: '#14110f', hairShade: '#070605', hairStyle: 'buzz', outfit: 'turtleneck',
    cloth: '#2f6f73', clothShade: '#215053', inner: '#2f6f73', eyes: '#2b1d14', lips: '#b76f62' },
  grace: { name: 'Grace', gender: 'female', age: 'older', skin: '#f0c6a6', skinShade: '#d9a584', hair: '#c9c6c2', hairShade: '#a29e99', hairStyle: 'bun', outfit: 'sweater',
    cloth: '#7a3f6e', clothShade: '#5c2f53', inner: '#f4ede4', eyes: '#4d6b8a', lips: '#b4606a', glasses: true, lines: true, earrings: true },
  rafael: { name: 'Rafael', gender: 'male', age: 'older', skin: '#b57a52', skinShade: '#9a6240', hair: '#8e8a86', hairShade: '#6f6b67', hairStyle: 'bald', outfit: 'suit',
    cloth: '#3b3b3f', clothShade: '#28282b', inner: '#f2f2f2', eyes: '#3a2414', lips: '#8a4b3a', beard: true, lines: true },
  aisha: { name: 'Aisha', gender: 'female', age: 'adult', skin: '#b27552', skinShade: '#965d3e', hair: '#2e6b5e', hairShade: '#1f4d43', hairStyle: 'hijab', outfit: 'top',
    cloth: '#2e6b5e', clothShade: '#1f4d43', inner: '#e8d6b0', eyes: '#3a2416', lips: '#9a4e4a' },
  tomas: { name: 'Tomás', gender: 'male', age: 'young', skin: '#5e3b2a', skinShade: '#4a2d20', hair: '#231812', hairShade: '#140d09', hairStyle: 'locs', outfit: 'hoodie',
    cloth: '#4a5bd4', clothShade: '#3545ad', inner: '#f1f1f1', eyes: '#24150c', lips: '#6b3a30' },
  lin: { name: 'Lin', gender: 'female', age: 'young', skin: '#f3d5b8', skinShade: '#ddb494', hair: '#16110e', hairShade: '#080605', hairStyle: 'long', outfit: 'turtleneck',
    cloth: '#e8e2d6', clothShade: '#cfc7b8', inner: '#e8e2d6', eyes: '#2b1c12', lips: '#c2666c' },
  walter: { name: 'Walter', gender: 'male', age: 'older', skin: '#f1c4a5', skinShade: '#d8a282', hair: '#eeeeea', hairShade: '#c9c9c3', hairStyle: 'short', outfit: 'sweater',
    cloth: '#55606e', clothShade: '#404955', inner: '#dfe6ee', eyes: '#5a7fa0', lips: '#b86b63', glasses: true, lines: true },
  priya: { name: 'Priya', gender: 'female', age: 'older', skin: '#a8704c', skinShade: '#8c5937', hair: '#3a3330', hairShade: '#252020', hairStyle: 'bun', outfit: 'blazer',
    cloth: '#1e6091', clothShade: '#164a70', inner: '#f7efe3', eyes: '#2b190e', lips: '#8e4a45', earrings: true, lines: true },
  jordan: { name: 'Jordan', gender: 'neutral', age: 'young', skin: '#d8a47c', skinShade: '#bf8962', hair: '#7c3aed', hairShade: '#5b21b6', hairStyle: 'bangs', outfit: 'hoodie',
    cloth: '#111827', clothShade: '#000000', inner: '#a3e635', eyes: '#3b2a1a', lips: '#b06a5c', freckles: true },
};

const svg = (body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${ART_WIDTH} ${ART_HEIGHT}" width="${ART_WIDTH}" height="${ART_HEIGHT}">${body}</svg>\n`;

// ---- body: torso, neck, outfit -------------------------------------------------------------
const TORSO = 'M0,480 L0,428 C0,378 34,352 100,338 L168,318 Q200,336 232,318 L300,338 C366,352 400,378 400,428 L400,480 Z';

function body(l: Look): string {
  const neck = `<path d="M170,240 L170,318 Q200,350 230,318 L230,240 Z" fill="${l.skin}"/>
<path d="M170,268 Q200,300 230,268 L230,290 Q200,318 170,290 Z" fill="${l.skinShade}" opacity="0.7"/>`;
  let outfit = '';
  switch (l.outfit) {
    case 'blazer':
      outfit = `<path d="${TORSO}" fill="${l.cloth}"/>
<path d="M160,318 L200,420 L240,318 Q200,340 160,318 Z" fill="${l.inner}"/>
<path d="M150,322 L200,440 L176,346 Z M250,322 L200,440 L224,346 Z" fill="${l.clothShade}"/>
<path d="M100,338 C70,350 50,370 44,400" stroke="${l.clothShade}" stroke-width="6" fill="none" stroke-linecap="round"/>
<path d="M300,338 C330,350 350,370 356,400" stroke="${l.clothShade}" stroke-width="6" fill="none" stroke-linecap="round"/>
<circle cx="200" cy="452" r="6" fill="${l.clothShade}"/>`;
      break;
    case 'sweater':
      outfit = `<path d="${TORSO}" fill="${l.cloth}"/>
<path d="M156,322 Q200,372 244,322" stroke="${l.clothShade}" stroke-width="16" fill="none"/>
<path d="M164,318 Q200,350 236,318" stroke="${l.inner}" stroke-width="7" fill="none"/>
<path d="M40,470 L40,420 M360,470 L360,420" stroke="${l.clothShade}" stroke-width="5" stroke-linecap="round"/>
<path d="M120,400 L130,480 M280,400 L270,480" stroke="${l.clothShade}" stroke-width="3" opacity="0.5"/>`;
      break;
    case 'top':
      outfit = `<path d="${TORSO}" fill="${l.cloth}"/>
<path d="M150,324 Q200,392 250,324 Q200,350 150,324 Z" fill="${l.skin}"/>
<path d="M150,324 Q200,392 250,324" stroke="${l.inner}" stroke-width="5" fill="none"/>
<circle cx="200" cy="378" r="7" fill="${l.inner}"/>`;
      break;
    case 'hoodie':
      outfit = `<path d="${TORSO}" fill="${l.cloth}"/>
<path d="M128,336 Q200,410 272,336 L252,326 Q200,380 148,326 Z" fill="${l.clothShade}"/>
<path d="M182,362 L178,430 M218,362 L222,430" stroke="${l.inner}" stroke-width="5" stroke-linecap="round"/>
<circle cx="178" cy="432" r="5" fill="${l.inner}"/><circle cx="222" cy="432" r="5" fill="${l.inner}"/>
<path d="M150,470 Q200,452 250,470" stroke="${l.clothShade}" stroke-width="6" fill="none"/>`;
      break;
    case 'turtleneck':
      outfit = `<path d="${TORSO}" fill="${l.cloth}"/>
<path d="M164,286 L236,286 L240,330 Q200,348 160,330 Z" fill="${l.clothShade}"/>
<path d="M166,298 L234,298 M164,312 L236,312" stroke="${l.cloth}" stroke-width="3" opacity="0.8"/>`;
      break;
    case 'suit':
      outfit = `<path d="${TORSO}" fill="${l.cloth}"/>
<path d="M160,318 L200,440 L240,318 Q200,340 160,318 Z" fill="${l.inner}"/>
<path d="M190,336 L210,336 L214,350 L206,440 L200,452 L194,440 L186,350 Z" fill="#c0392b"/>
<path d="M190,336 L210,336 L206,350 L194,350 Z" fill="#962d22"/>
<path d="M156,320 L200,446 L170,350 L182,336 Z M244,320 L200,446 L230,350 L218,336 Z" fill="${l.clothShade}"/>
<path d="M300,380 L330,378" stroke="#ffffff" stroke-width="5" opacity="0.8" stroke-linecap="round"/>`;
      break;
  }
  return svg(`${neck}${outfit}`);
}

// ---- hair ----------------------------------------------------------------------------------
function hairBack(l: Look): string {
  switch (l.hairStyle) {
    case 'bob':
      return `<path d="M104,170 C100,80 160,40 200,40 C244,40 302,80 296,170 L304,262 Q300,292 270,298 L130,298 Q100,292 96,262 Z" fill="${l.hairShade}"/>`;
    case 'long':
      return `<path d="M108,160 C100,70 160,36 200,36 C244,36 300,70 292,160 C300,230 318,300 330,380 Q300,400 262,380 L138,380 Q100,400 70,380 C82,300 100,230 108,160 Z" fill="${l.hairShade}"/>`;
    case 'bangs':
      return `<path d="M106,168 C98,78 160,40 200,40 C242,40 302,78 294,168 C298,240 312,300 318,352 Q290,366 256,352 L144,352 Q110,366 82,352 C88,300 102,240 106,168 Z" fill="${l.hairShade}"/>`;
    case 'afro':
      return `<ellipse cx="200" cy="150" rx="122" ry="112" fill="${l.hairShade}"/>`;
    case 'bun':
      return `<circle cx="200" cy="62" r="34" fill="${l.hairShade}"/>`;
    case 'hijab':
      // The scarf falls over the shoulders, behind the face and in front of the neck's sides.
      return `<path d="M104,176 C96,84 154,44 200,44 C246,44 304,84 296,176 C300,250 318,300 330,352 Q200,392 70,352 C82,300 100,250 104,176 Z" fill="${l.hairShade}"/>`;
    case 'locs': {
      const strands = [120, 138, 156, 244, 262, 280]
        .map((x, i) => `<path d="M${x},120 Q${x + (i < 3 ? -10 : 10)},220 ${x + (i < 3 ? -4 : 4)},${300 + (i % 3) * 14}" stroke="${l.hairShade}" stroke-width="17" fill="none" stroke-linecap="round"/>`)
        .join('');
      return strands;
    }
    default:
      return '';
  }
}

function hairFront(l: Look): string {
  const h = l.hair;
  switch (l.hairStyle) {
    case 'bob':
      return `<path d="M118,200 C104,110 150,52 204,52 C262,52 298,104 284,200 C276,160 262,128 236,112 C210,140 160,150 128,150 C122,168 120,184 118,200 Z" fill="${h}"/>
<path d="M118,196 C112,230 110,262 122,290 L140,290 C130,260 126,230 128,196 Z M284,196 C290,230 292,262 280,290 L262,290 C272,260 276,230 272,196 Z" fill="${h}"/>
<path d="M160,80 C190,66 230,68 256,84" stroke="#ffffff" stroke-opacity="0.18" stroke-width="6" fill="none" stroke-linecap="round"/>`;
    case 'curly': {
      const curls = [
        [140, 104, 26], [168, 80, 28], [200, 72, 30], [232, 80, 28], [260, 104, 26], [124, 136, 22], [276, 136, 22],
        [154, 120, 20], [246, 120, 20], [190, 104, 22], [218, 104, 20],
      ]
        .map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${h}"/>`)
        .join('');
      return `${curls}<path d="M150,82 C170,70 190,66 204,68" stroke="#ffffff" stroke-opacity="0.15" stroke-width="6" fill="none" stroke-linecap="round"/>`;
    }
    case 'long':
      return `<path d="M116,210 C100,110 150,50 200,50 C252,50 300,110 284,210 C276,150 250,112 204,100 C180,124 150,150 128,160 C122,178 118,194 116,210 Z" fill="${h}"/>
<path d="M170,64 C196,56 232,60 256,76" stroke="#ffffff" stroke-opacity="0.16" stroke-width="6" fill="none" stroke-linecap="round"/>`;
    case 'quiff':
      return `<path d="M122,176 C112,112 140,64 192,52 C226,44 270,56 282,96 C290,120 286,150 278,176 C270,140 250,122 226,118 C196,116 168,122 148,132 C134,142 126,158 122,176 Z" fill="${h}"/>
<path d="M186,54 C214,40 252,50 270,70 C246,62 214,60 186,70 Z" fill="${l.hairShade}"/>
<path d="M176,70 C206,58 240,62 262,80" stroke="#ffffff" stroke-opacity="0.22" stroke-width="6" fill="none" stroke-linecap="round"/>`;
    case 'bangs':
      return `<path d="M118,206 C104,110 150,54 202,54 C256,54 298,110 282,206 C280,176 276,154 268,140 C240,150 170,150 132,140 C124,156 120,180 118,206 Z" fill="${h}"/>
<path d="M132,142 C150,112 180,100 200,100 C226,100 254,114 268,142 C240,132 220,128 200,128 C176,128 152,132 132,142 Z" fill="${l.hairShade}" opacity="0.5"/>
<path d="M166,72 C192,62 226,64 250,78" stroke="#ffffff" stroke-opacity="0.18" stroke-width="6" fill="none" stroke-linecap="round"/>`;
    case 'short':
      return `<path d="M124,170 C116,110 150,70 200,70 C252,70 286,110 276,170 C272,146 262,128 246,118 C220,110 180,110 154,118 C138,128 128,146 124,170 Z" fill="${h}"/>`;
    case 'afro': {
      const puffs = [[118, 150, 34], [132, 108, 36], [162, 78, 38], [200, 66, 40], [238, 78, 38], [268, 108, 36], [282, 150, 34], [128, 190, 24], [272, 190, 24]]
        .map(([x, y, r]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${h}"/>`)
        .join('');
      return `${puffs}<path d="M160,96 C180,84 214,82 238,92" stroke="#ffffff" stroke-opacity="0.12" stroke-width="6" fill="none" stroke-linecap="round"/>`;
    }
    case 'bun':
      return `<path d="M124,178 C114,110 152,70 200,70 C250,70 288,110 276,178 C272,146 258,124 236,114 C210,106 188,106 166,114 C144,124 128,146 124,178 Z" fill="${h}"/>
<path d="M170,84 C190,76 214,76 234,84" stroke="#ffffff" stroke-opacity="0.25" stroke-width="5" fill="none" stroke-linecap="round"/>`;
    case 'bald':
      return `<path d="M124,196 C120,170 122,150 128,136 L138,140 C134,156 134,176 136,200 Z M276,196 C280,170 278,150 272,136 L262,140 C266,156 266,176 264,200 Z" fill="${h}"/>
<path d="M168,98 C186,90 214,90 232,98" stroke="#ffffff" stroke-opacity="0.22" stroke-width="6" fill="none" stroke-linecap="round"/>`;
    case 'hijab':
      return `<path d="M118,214 C102,120 148,58 200,58 C252,58 298,120 282,214 C282,176 272,140 252,118 C234,104 216,100 200,100 C184,100 166,104 148,118 C128,140 118,176 118,214 Z" fill="${h}"/>
<path d="M118,210 C118,260 140,300 170,318 L150,330 C120,310 104,262 108,214 Z M282,210 C282,260 260,300 230,318 L250,330 C280,310 296,262 292,214 Z" fill="${h}"/>
<path d="M160,288 Q200,318 240,288 L252,334 Q200,356 148,334 Z" fill="${h}"/>
<path d="M150,104 C180,90 220,90 250,104" stroke="${l.inner}" stroke-width="5" fill="none" stroke-linecap="round" opacity="0.8"/>`;
    case 'locs':
      return `<path d="M122,176 C112,112 150,66 200,66 C252,66 290,112 278,176 C270,146 256,124 236,114 C212,104 188,104 164,114 C144,124 130,146 122,176 Z" fill="${h}"/>
<path d="M146,96 Q150,120 142,150 M176,80 Q178,108 170,128 M224,80 Q222,108 230,128 M254,96 Q250,120 258,150" stroke="${l.hairShade}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
    case 'buzz':
      return `<path d="M128,160 C124,110 158,80 200,80 C242,80 276,110 272,160 C266,136 250,118 228,112 C210,108 190,108 172,112 C150,118 134,136 128,160 Z" fill="${h}" opacity="0.92"/>`;
  }
}

// ---- head: face (no eyes, no mouth), ears, brows, nose, hair in front ------------------------
const FACE = 'M126,176 C124,104 160,86 200,86 C240,86 276,104 274,176 C274,236 248,282 200,284 C152,282 126,236 126,176 Z';

function head(l: Look): string {
  const ears = `<ellipse cx="126" cy="188" rx="13" ry="21" fill="${l.skin}"/><ellipse cx="274" cy="188" rx="13" ry="21" fill="${l.skin}"/>
<ellipse cx="128" cy="190" rx="6" ry="11" fill="${l.skinShade}"/><ellipse cx="272" cy="190" rx="6" ry="11" fill="${l.skinShade}"/>`;
  const earrings = l.earrings
    ? `<circle cx="124" cy="218" r="8" fill="none" stroke="#f2c14e" stroke-width="3"/><circle cx="276" cy="218" r="8" fill="none" stroke="#f2c14e" stroke-width="3"/>`
    : '';
  const face = `<path d="${FACE}" fill="${l.skin}"/>
<path d="M140,230 C156,268 178,280 200,282 C222,280 244,268 260,230 C250,262 228,286 200,288 C172,286 150,262 140,230 Z" fill="${l.skinShade}" opacity="0.5"/>`;
  const cheeks = `<ellipse cx="156" cy="226" rx="16" ry="10" fill="#ff8a80" opacity="0.22"/><ellipse cx="244" cy="226" rx="16" ry="10" fill="#ff8a80" opacity="0.22"/>`;
  const freckles = l.freckles
    ? [[150, 214], [158, 220], [146, 222], [250, 214], [242, 220], [254, 222], [190, 206], [210, 206]]
        .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="1.8" fill="${l.skinShade}"/>`)
        .join('')
    : '';
  const nose = `<path d="M202,196 C204,210 208,220 210,226 C206,230 198,230 194,228" stroke="${l.skinShade}" stroke-width="4" fill="none" stroke-linecap="round"/>`;
  const brows = `<path d="M152,160 Q170,150 188,158" stroke="${l.hairShade}" stroke-width="6" fill="none" stroke-linecap="round"/>
<path d="M212,158 Q230,150 248,160" stroke="${l.hairShade}" stroke-width="6" fill="none" stroke-linecap="round"/>`;
  const beard = l.beard
    ? `<path d="M132,206 C136,250 160,288 200,290 C240,288 264,250 268,206 C262,236 250,262 230,270 C220,262 210,258 200,258 C190,258 180,262 170,270 C150,262 138,236 132,206 Z" fill="${l.hair}" opacity="0.85"/>`
    : '';
  const glasses = l.glasses
    ? `<g fill="none" stroke="#2b2b2b" stroke-width="4.5"><rect x="144" y="172" width="48" height="36" rx="12"/><rect x="208" y="172" width="48" height="36" rx="12"/>
<path d="M192,186 Q200,180 208,186 M144,186 L128,182 M256,186 L272,182"/></g>
<path d="M152,178 L164,178" stroke="#ffffff" stroke-opacity="0.5" stroke-width="3" stroke-linecap="round"/>`
    : '';
  const phones = l.headphones
    ? `<path d="M140,300 C120,320 130,344 160,346 L240,346 C270,344 280,320 260,300" stroke="#1d1d24" stroke-width="14" fill="none" stroke-linecap="round"/>
<rect x="118" y="292" width="34" height="44" rx="12" fill="#2b2b36"/><rect x="248" y="292" width="34" height="44" rx="12" fill="#2b2b36"/>
<rect x="124" y="300" width="22" height="28" rx="8" fill="#ff6b3d"/><rect x="254" y="300" width="22" height="28" rx="8" fill="#ff6b3d"/>`
    : '';
  const lines = l.lines
    ? `<g stroke="${l.skinShade}" stroke-width="2.5" fill="none" stroke-linecap="round" opacity="0.9">
<path d="M168,128 Q200,122 232,128"/><path d="M174,140 Q200,135 226,140"/>
<path d="M172,232 Q166,246 172,262"/><path d="M228,232 Q234,246 228,262"/>
<path d="M140,196 L132,200 M260,196 L268,200"/></g>`
    : '';
  // A scarf covers the ears.
  const side = l.hairStyle === 'hijab' ? '' : `${ears}${earrings}`;
  return svg(`${phones}${side}${face}${cheeks}${freckles}${lines}${nose}${beard}${brows}${hairFront(l)}${glasses}`);
}

function eyes(l: Look, closed: boolean): string {
  const one = (cx: number) =>
    closed
      ? `<path d="M${cx - 15},192 Q${cx},202 ${cx + 15},192" stroke="#2b1d16" stroke-width="4.5" fill="none" stroke-linecap="round"/>`
      : `<ellipse cx="${cx}" cy="190" rx="15" ry="11" fill="#ffffff"/>
<circle cx="${cx}" cy="191" r="8.5" fill="${l.eyes}"/><circle cx="${cx}" cy="191" r="4.5" fill="#15100d"/>
<circle cx="${cx + 3}" cy="187" r="2.6" fill="#ffffff"/>
<path d="M${cx - 16},186 Q${cx},174 ${cx + 16},186" stroke="#2b1d16" stroke-width="4" fill="none" stroke-linecap="round"/>`;
  return svg(one(168) + one(232));
}

// ---- mouths: one per viseme, centred on (200, 248) --------------------------------------------
function mouth(l: Look, v: string): string {
  const lip = l.lips;
  const dark = '#5a1f24';
  const teeth = '#fbfaf6';
  const tongue = '#e0757a';
  const open = (rx: number, ry: number, teethH: number, showTongue: boolean) =>
    `<ellipse cx="200" cy="250" rx="${rx}" ry="${ry}" fill="${dark}"/>` +
    (teethH > 0 ? `<path d="M${200 - rx * 0.8},${250 - ry + 1} L${200 + rx * 0.8},${250 - ry + 1} L${200 + rx * 0.7},${250 - ry + teethH} L${200 - rx * 0.7},${250 - ry + teethH} Z" fill="${teeth}"/>` : '') +
    (showTongue ? `<ellipse cx="200" cy="${250 + ry * 0.55}" rx="${rx * 0.55}" ry="${ry * 0.4}" fill="${tongue}"/>` : '') +
    `<ellipse cx="200" cy="250" rx="${rx}" ry="${ry}" fill="none" stroke="${lip}" stroke-width="4.5"/>`;
  switch (v) {
    case 'rest':
      return svg(`<path d="M182,248 Q200,258 218,248" stroke="${lip}" stroke-width="5" fill="none" stroke-linecap="round"/>`);
    case 'mbp':
      return svg(`<path d="M180,249 Q200,254 220,249 Q200,259 180,249 Z" fill="${lip}" stroke="${lip}" stroke-width="4" stroke-linejoin="round"/>`);
    case 'ai':
      return svg(open(19, 15, 6, true));
    case 'e':
      return svg(open(22, 8, 6, false));
    case 'etc':
      // Teeth together, lips apart (t d n s z l k g): a flat opening showing both rows of teeth.
      return svg(`<path d="M181,247 Q200,241 219,247 Q200,259 181,247 Z" fill="${dark}"/>
<path d="M185,246.5 Q200,243 215,246.5 L214,251 Q200,254.5 186,251 Z" fill="${teeth}"/>
<path d="M186,249 Q200,251.5 214,249" stroke="#d9d4cc" stroke-width="1" fill="none"/>
<path d="M181,247 Q200,241 219,247 Q200,259 181,247 Z" fill="none" stroke="${lip}" stroke-width="4" stroke-linejoin="round"/>`);
    case 'o':
      return svg(open(12, 13, 0, true));
    case 'u':
      return svg(`<ellipse cx="200" cy="250" rx="8" ry="8" fill="${dark}"/><ellipse cx="200" cy="250" rx="9" ry="9" fill="none" stroke="${lip}" stroke-width="6"/>`);
    case 'fv':
      return svg(`<path d="M180,246 Q200,240 220,246 L218,254 Q200,258 182,254 Z" fill="${dark}"/>
<path d="M184,246 L216,246 L214,252 L186,252 Z" fill="${teeth}"/>
<path d="M180,256 Q200,250 220,256" stroke="${lip}" stroke-width="6" fill="none" stroke-linecap="round"/>`);
  }
  throw new Error(`unknown viseme ${v}`);
}

function layer(l: Look, part: PresenterPart): string {
  if (part === 'hair-back') return svg(hairBack(l));
  if (part === 'body') return body(l);
  if (part === 'head') return head(l);
  if (part === 'eyes-open') return eyes(l, false);
  if (part === 'eyes-closed') return eyes(l, true);
  return mouth(l, part.slice('mouth-'.length));
}

async function measure(files: string[]): Promise<Rect> {
  const c = createCanvas(ART_WIDTH, ART_HEIGHT);
  const ctx = c.getContext('2d');
  for (const f of files) ctx.drawImage(await loadImage(f), 0, 0, ART_WIDTH, ART_HEIGHT);
  const { data } = ctx.getImageData(0, 0, ART_WIDTH, ART_HEIGHT);
  let x0 = ART_WIDTH, y0 = ART_HEIGHT, x1 = -1, y1 = -1;
  for (let y = 0; y < ART_HEIGHT; y++)
    for (let x = 0; x < ART_WIDTH; x++)
      if (data[(y * ART_WIDTH + x) * 4 + 3]! > 127) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return { x: x0, y: y0, width: x1 + 1 - x0, height: y1 + 1 - y0 };
}

const bounds: Record<string, { content: Rect; moving: Rect }> = {};
for (const [id, look] of Object.entries(LOOKS)) {
  const dir = join(root, 'resources/presenters', id);
  mkdirSync(dir, { recursive: true });
  for (const part of PRESENTER_PARTS) writeFileSync(join(dir, `${part}.svg`), layer(look, part));
  const file = (p: string) => join(dir, `${p}.svg`);
  bounds[id] = {
    content: await measure(['hair-back', 'body', 'head', 'eyes-open', 'mouth-rest'].map(file)),
    moving: await measure(PRESENTER_PARTS.filter((p) => p !== 'body').map(file)),
  };
}
const castLines = Object.entries(LOOKS).map(([id, l]) => `    ${JSON.stringify({ id, name: l.name, gender: l.gender, age: l.age })}`);
writeFileSync(join(root, 'resources/presenters.json'), `{\n  "presenters": [\n${castLines.join(',\n')}\n  ]\n}\n`);
const rect = (b: Rect) => `{ x: ${b.x}, y: ${b.y}, width: ${b.width}, height: ${b.height} }`;
const lines = Object.entries(bounds).map(([id, b]) => `  ${id}: {\n    content: ${rect(b.content)},\n    moving: ${rect(b.moving)},\n  },`);
writeFileSync(
  join(root, 'shared/scene/presenter-bounds.ts'),
  `// Painted bounds of each presenter's art at rest, in art units (viewBox ${ART_WIDTH}×${ART_HEIGHT}):
// all layers (content) and the layers that move (moving: everything but the torso).
// Written by tools/engine/presenter-art.ts when it draws the art; do not edit by hand.
import type { Rect } from './types.js';

export const PRESENTER_BOUNDS: Record<string, { content: Rect; moving: Rect }> = {
${lines.join('\n')}
};
`,
);
console.log(bounds);
