// Template backgrounds, painted in code from the frame size so they fill every aspect ratio
// without stretching. Drawn once per job by the engine (they never change within a video).
import type { BackgroundKind } from './catalog.js';
import type { SceneLayout } from './layout.js';
import type { Ctx2D } from './types.js';

type Painter = (ctx: Ctx2D, W: number, H: number) => void;

function vignette(ctx: Ctx2D, W: number, H: number, alpha: number): void {
  const g = ctx.createRadialGradient(W / 2, H / 2, Math.min(W, H) * 0.35, W / 2, H / 2, Math.hypot(W, H) * 0.62);
  g.addColorStop(0, 'rgba(0,0,0,0)');
  g.addColorStop(1, `rgba(0,0,0,${alpha})`);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
}

const newsroom: Painter = (ctx, W, H) => {
  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, '#0b1a3a');
  g.addColorStop(0.55, '#123a7a');
  g.addColorStop(1, '#0a2352');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  // A wall of screens: soft glowing panels behind the anchor.
  const u = Math.min(W, H);
  const cols = Math.max(3, Math.round(W / (u * 0.32)));
  const pw = W / cols;
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < 3; r++) {
      const x = c * pw + pw * 0.08;
      const y = H * 0.08 + r * u * 0.2;
      const lg = ctx.createLinearGradient(x, y, x + pw, y + u * 0.18);
      lg.addColorStop(0, `rgba(90,160,255,${0.1 + ((c + r) % 3) * 0.05})`);
      lg.addColorStop(1, 'rgba(40,90,200,0.04)');
      ctx.fillStyle = lg;
      ctx.fillRect(x, y, pw * 0.84, u * 0.17);
    }
  }
  // Skyline silhouette and the desk edge.
  ctx.fillStyle = 'rgba(6,16,40,0.55)';
  let x = 0;
  let i = 0;
  while (x < W) {
    const bw = u * (0.05 + ((i * 37) % 7) * 0.012);
    const bh = u * (0.12 + ((i * 53) % 9) * 0.03);
    ctx.fillRect(x, H * 0.7 - bh, bw, bh + H);
    x += bw + u * 0.006;
    i++;
  }
  const desk = ctx.createLinearGradient(0, H * 0.84, 0, H);
  desk.addColorStop(0, '#1b4fa8');
  desk.addColorStop(0.06, '#0d2e6b');
  desk.addColorStop(1, '#061633');
  ctx.fillStyle = desk;
  ctx.fillRect(0, H * 0.84, W, H * 0.16);
  ctx.fillStyle = 'rgba(120,190,255,0.55)';
  ctx.fillRect(0, H * 0.84, W, Math.max(2, u * 0.004));
  vignette(ctx, W, H, 0.45);
};

const chalkboard: Painter = (ctx, W, H) => {
  const u = Math.min(W, H);
  ctx.fillStyle = '#6b4526';
  ctx.fillRect(0, 0, W, H);
  const f = u * 0.04;
  const g = ctx.createRadialGradient(W * 0.5, H * 0.45, u * 0.1, W * 0.5, H * 0.5, Math.hypot(W, H) * 0.6);
  g.addColorStop(0, '#2f5a45');
  g.addColorStop(1, '#1c3a2c');
  ctx.fillStyle = g;
  ctx.fillRect(f, f, W - 2 * f, H - 2 * f);
  ctx.strokeStyle = '#8a5a33';
  ctx.lineWidth = u * 0.012;
  ctx.strokeRect(f * 0.5, f * 0.5, W - f, H - f);
  // Faint eraser smudges and a few doodles: a formula, a plot, an underline.
  for (let i = 0; i < 4; i++) {
    const sx = W * (0.08 + i * 0.22);
    const sy = H * (0.18 + (i % 2) * 0.3);
    const smudge = ctx.createRadialGradient(sx, sy, 0, sx, sy, u * 0.22);
    smudge.addColorStop(0, 'rgba(235,240,230,0.07)');
    smudge.addColorStop(1, 'rgba(235,240,230,0)');
    ctx.fillStyle = smudge;
    ctx.beginPath();
    ctx.ellipse(sx, sy, u * 0.32, u * 0.12, -0.15, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.lineCap = 'round';
  // Chalk writing solid enough to read on the board (the doodles' lines may stay faint).
  ctx.fillStyle = 'rgba(245,245,230,0.9)';
  ctx.font = `italic ${Math.round(u * 0.07)}px "DejaVu Serif"`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillText('a² + b² = c²', W * 0.56, H * 0.2);
  ctx.strokeStyle = 'rgba(245,245,230,0.45)';
  ctx.lineWidth = u * 0.006;
  ctx.beginPath();
  ctx.moveTo(W * 0.58, H * 0.45);
  ctx.lineTo(W * 0.58, H * 0.27);
  ctx.moveTo(W * 0.58, H * 0.45);
  ctx.lineTo(W * 0.86, H * 0.45);
  ctx.stroke();
  ctx.strokeStyle = 'rgba(255,224,102,0.55)';
  ctx.beginPath();
  ctx.moveTo(W * 0.59, H * 0.43);
  ctx.bezierCurveTo(W * 0.66, H * 0.42, W * 0.72, H * 0.3, W * 0.85, H * 0.29);
  ctx.stroke();
  ctx.fillStyle = '#7d522e';
  ctx.fillRect(f, H - f * 1.6, W - 2 * f, f * 0.7);
  ctx.fillStyle = '#f2f0e6';
  ctx.fillRect(W * 0.7, H - f * 1.9, u * 0.06, f * 0.3);
  vignette(ctx, W, H, 0.3);
};

const stage: Painter = (ctx, W, H) => {
  const g = ctx.createLinearGradient(0, 0, W, H);
  g.addColorStop(0, '#2b0a5e');
  g.addColorStop(0.5, '#8a1e8f');
  g.addColorStop(1, '#ff6a3d');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  // Light beams fanning from above.
  for (let i = 0; i < 6; i++) {
    const x0 = W * (0.1 + i * 0.16);
    const beam = ctx.createLinearGradient(x0, 0, x0, H);
    beam.addColorStop(0, 'rgba(255,255,255,0.16)');
    beam.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = beam;
    ctx.beginPath();
    ctx.moveTo(x0 - W * 0.01, 0);
    ctx.lineTo(x0 + W * 0.01, 0);
    ctx.lineTo(x0 + W * (0.12 - i * 0.04), H);
    ctx.lineTo(x0 + W * (0.02 - i * 0.04), H);
    ctx.closePath();
    ctx.fill();
  }
  const u = Math.min(W, H);
  const glow = ctx.createRadialGradient(W / 2, H * 0.9, 0, W / 2, H * 0.9, u * 0.7);
  glow.addColorStop(0, 'rgba(255,220,180,0.45)');
  glow.addColorStop(1, 'rgba(255,220,180,0)');
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, W, H);
  ctx.strokeStyle = 'rgba(255,255,255,0.12)';
  ctx.lineWidth = u * 0.004;
  for (let r = 1; r <= 3; r++) {
    ctx.beginPath();
    ctx.ellipse(W / 2, H * 0.92, u * 0.25 * r, u * 0.05 * r, 0, 0, Math.PI * 2);
    ctx.stroke();
  }
  vignette(ctx, W, H, 0.35);
};

const social: Painter = (ctx, W, H) => {
  const g = ctx.createLinearGradient(0, 0, 0, H);
  g.addColorStop(0, '#12c2b9');
  g.addColorStop(1, '#0a5bd6');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  const u = Math.min(W, H);
  const blobs: [number, number, number, string][] = [
    [0.1, 0.12, 0.35, 'rgba(255,230,0,0.85)'],
    [0.92, 0.3, 0.28, 'rgba(255,94,156,0.8)'],
    [0.85, 0.88, 0.4, 'rgba(255,255,255,0.18)'],
    [0.05, 0.7, 0.22, 'rgba(120,255,200,0.35)'],
  ];
  for (const [x, y, r, c] of blobs) {
    ctx.fillStyle = c;
    ctx.beginPath();
    ctx.arc(W * x, H * y, u * r, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = 'rgba(255,255,255,0.22)';
  for (let i = 0; i < 40; i++) {
    const x = ((i * 97) % 100) / 100;
    const y = ((i * 61) % 100) / 100;
    ctx.beginPath();
    ctx.arc(W * x, H * y, u * 0.008, 0, Math.PI * 2);
    ctx.fill();
  }
};

const studio: Painter = (ctx, W, H) => {
  ctx.fillStyle = '#17161c';
  ctx.fillRect(0, 0, W, H);
  const u = Math.min(W, H);
  // Acoustic foam panels in a grid.
  const s = u * 0.16;
  for (let y = -s * 0.3; y < H; y += s * 1.08) {
    for (let x = -s * 0.2; x < W; x += s * 1.08) {
      const pg = ctx.createLinearGradient(x, y, x + s, y + s);
      pg.addColorStop(0, '#2a2833');
      pg.addColorStop(1, '#1d1c24');
      ctx.fillStyle = pg;
      ctx.beginPath();
      ctx.roundRect(x, y, s, s, s * 0.12);
      ctx.fill();
    }
  }
  // Warm lamp glow and a cool rim light.
  const warm = ctx.createRadialGradient(W * 0.15, H * 0.2, 0, W * 0.15, H * 0.2, u * 0.8);
  warm.addColorStop(0, 'rgba(255,150,70,0.35)');
  warm.addColorStop(1, 'rgba(255,150,70,0)');
  ctx.fillStyle = warm;
  ctx.fillRect(0, 0, W, H);
  const cool = ctx.createRadialGradient(W * 0.9, H * 0.75, 0, W * 0.9, H * 0.75, u * 0.7);
  cool.addColorStop(0, 'rgba(90,120,255,0.25)');
  cool.addColorStop(1, 'rgba(90,120,255,0)');
  ctx.fillStyle = cool;
  ctx.fillRect(0, 0, W, H);
  // ON AIR sign.
  const sw = u * 0.2;
  const sh = u * 0.07;
  const sx = W - sw - W * 0.06;
  const sy = H * 0.06;
  ctx.shadowColor = 'rgba(255,60,40,0.9)';
  ctx.shadowBlur = u * 0.03;
  ctx.fillStyle = '#3a0d0a';
  ctx.beginPath();
  ctx.roundRect(sx, sy, sw, sh, sh * 0.2);
  ctx.fill();
  // The sign glows; its letters do not (a glow round them would bring what is behind them up to their own colour).
  ctx.shadowBlur = 0;
  ctx.shadowColor = 'rgba(0,0,0,0)';
  // Light enough to keep its contrast under the vignette's darkening of the corner.
  ctx.fillStyle = '#ff9f85';
  ctx.font = `bold ${Math.round(sh * 0.55)}px "DejaVu Sans"`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('ON AIR', sx + sw / 2, sy + sh / 2);
  vignette(ctx, W, H, 0.55);
};

const office: Painter = (ctx, W, H) => {
  const g = ctx.createLinearGradient(0, 0, 0, H);
  g.addColorStop(0, '#f4f6f9');
  g.addColorStop(1, '#dfe5ec');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, W, H);
  const u = Math.min(W, H);
  // A wide window with a soft sky, split into panes.
  const wx = W * 0.45;
  const wy = H * 0.08;
  const ww = W * 0.5;
  const wh = H * 0.55;
  const sky = ctx.createLinearGradient(0, wy, 0, wy + wh);
  sky.addColorStop(0, '#bcdcf5');
  sky.addColorStop(1, '#e9f3fb');
  ctx.fillStyle = sky;
  ctx.fillRect(wx, wy, ww, wh);
  ctx.fillStyle = 'rgba(150,175,200,0.35)';
  for (let i = 0; i < 7; i++) ctx.fillRect(wx + ww * (0.05 + i * 0.13), wy + wh * (0.55 - (i % 3) * 0.1), ww * 0.1, wh);
  ctx.fillStyle = '#ffffff';
  const bar = u * 0.012;
  ctx.fillRect(wx - bar, wy - bar, ww + 2 * bar, bar);
  ctx.fillRect(wx - bar, wy + wh, ww + 2 * bar, bar * 1.5);
  for (let i = 0; i <= 3; i++) ctx.fillRect(wx + (ww * i) / 3 - bar / 2, wy, bar, wh);
  // Shelf with a plant and a few books on the left wall.
  const shelfY = H * 0.42;
  ctx.fillStyle = '#c9ced6';
  ctx.fillRect(W * 0.04, shelfY, W * 0.3, u * 0.014);
  const books = ['#1f6feb', '#f2a541', '#2bb673', '#6c7a89'];
  books.forEach((c, i) => {
    ctx.fillStyle = c;
    ctx.fillRect(W * 0.06 + i * u * 0.035, shelfY - u * (0.1 + (i % 2) * 0.02), u * 0.03, u * (0.1 + (i % 2) * 0.02));
  });
  ctx.fillStyle = '#e8ecf1';
  ctx.fillRect(W * 0.24, shelfY - u * 0.06, u * 0.06, u * 0.06);
  ctx.fillStyle = '#3a9d5d';
  for (let i = 0; i < 5; i++) {
    ctx.beginPath();
    ctx.ellipse(W * 0.24 + u * 0.03, shelfY - u * 0.08, u * 0.018, u * 0.05, (i - 2) * 0.45, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = '#cfd6df';
  ctx.fillRect(0, H * 0.8, W, H * 0.2);
  ctx.fillStyle = 'rgba(31,111,235,0.9)';
  ctx.fillRect(0, H * 0.8, W, Math.max(2, u * 0.006));
};

const PAINTERS: Record<BackgroundKind, Painter> = {
  newsroom, chalkboard, stage, social, studio, office,
};

/**
 * A scene's own picture as its background: an image, a video frame or a document page, already
 * decoded (`image` with its pixel size), placed by `fit`.
 */
export interface BackgroundPicture {
  image: CanvasImageSource | object;
  width: number;
  height: number;
  fit: 'cover' | 'contain';
}

/**
 * The point of a covering picture that stays where it is in the frame (fractions of each): the
 * middle across, high up and down. A picture taller than the frame is cut mostly from the
 * bottom: people's faces and a page's heading sit high, and a middle cut of a portrait put into
 * a wide frame left a face without its eyes.
 */
export const COVER_FOCUS = { x: 0.5, y: 0.15 } as const;

/** Where a picture of `w`×`h` lands in a frame of `W`×`H`: cover fills (cropping about COVER_FOCUS), contain shows all (bars). */
export function fitRect(w: number, h: number, W: number, H: number, fit: 'cover' | 'contain'): { x: number; y: number; width: number; height: number } {
  const k = fit === 'cover' ? Math.max(W / w, H / h) : Math.min(W / w, H / h);
  const width = w * k;
  const height = h * k;
  const at = fit === 'cover' ? COVER_FOCUS : { x: 0.5, y: 0.5 };
  return { x: (W - width) * at.x, y: (H - height) * at.y, width, height };
}

/** Bars around a contained picture: near-black, as a player shows letterboxing. */
export const LETTERBOX_COLOR = '#0b0d12';

/** The frame's background: the template's painting, or the scene's own picture when it has one. */
export function drawBackground(ctx: Ctx2D, layout: SceneLayout, picture: BackgroundPicture | null = null): void {
  ctx.save();
  const { width: W, height: H } = layout.size;
  if (picture) {
    ctx.fillStyle = LETTERBOX_COLOR;
    ctx.fillRect(0, 0, W, H);
    const r = fitRect(picture.width, picture.height, W, H, picture.fit);
    (ctx as unknown as { drawImage(i: unknown, x: number, y: number, w: number, h: number): void }).drawImage(picture.image, r.x, r.y, r.width, r.height);
  } else {
    PAINTERS[layout.style.background](ctx, W, H);
  }
  ctx.restore();
}
