// RGBA (Skia, premultiplied) → yuva420p planes, done once per changed region in the engine so
// ffmpeg does not convert every frame's pixels again. BT.601 limited range: the same matrix
// ffmpeg's swscale uses for its own RGB → YUV, so regions meet the background without a seam.

export interface Planes {
  width: number;
  height: number;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
  a: Uint8Array;
}

export function allocPlanes(width: number, height: number): Planes {
  const c = (width >> 1) * (height >> 1);
  return { width, height, y: new Uint8Array(width * height), u: new Uint8Array(c), v: new Uint8Array(c), a: new Uint8Array(width * height) };
}

/**
 * Converts premultiplied RGBA (even width and height) to straight-alpha yuva420p planes,
 * into `out` when given (a region converts into the same planes on every change).
 */
export function rgbaToYuva(px: Uint8Array, width: number, height: number, out = allocPlanes(width, height)): Planes {
  const cw = width >> 1;
  const ch = height >> 1;
  const { y, u, v, a } = out;
  for (let j = 0; j < height; j++) {
    let i = j * width * 4;
    let o = j * width;
    for (let x = 0; x < width; x++, i += 4, o++) {
      const al = px[i + 3]!;
      a[o] = al;
      if (al === 255) {
        y[o] = ((66 * px[i]! + 129 * px[i + 1]! + 25 * px[i + 2]! + 128) >> 8) + 16;
      } else if (al === 0) {
        y[o] = 16;
      } else {
        const r = Math.min(255, ((px[i]! * 255) / al + 0.5) | 0);
        const g = Math.min(255, ((px[i + 1]! * 255) / al + 0.5) | 0);
        const b = Math.min(255, ((px[i + 2]! * 255) / al + 0.5) | 0);
        y[o] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
      }
    }
  }
  // Chroma: the alpha-weighted average colour of each 2×2 block (premultiplied sums / alpha sum).
  const row = width * 4;
  for (let cj = 0; cj < ch; cj++) {
    let i0 = 2 * cj * row;
    let o = cj * cw;
    for (let cx = 0; cx < cw; cx++, i0 += 8, o++) {
      const i1 = i0 + row;
      const as = px[i0 + 3]! + px[i0 + 7]! + px[i1 + 3]! + px[i1 + 7]!;
      if (as === 0) {
        u[o] = 128;
        v[o] = 128;
        continue;
      }
      const rs = px[i0]! + px[i0 + 4]! + px[i1]! + px[i1 + 4]!;
      const gs = px[i0 + 1]! + px[i0 + 5]! + px[i1 + 1]! + px[i1 + 5]!;
      const bs = px[i0 + 2]! + px[i0 + 6]! + px[i1 + 2]! + px[i1 + 6]!;
      // Opaque blocks (the head region) stay in integers: the average is the sum / 4.
      const k = as === 1020 ? 0.25 : 255 / as;
      const r = rs * k;
      const g = gs * k;
      const b = bs * k;
      u[o] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
      v[o] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
    }
  }
  return out;
}

/** Byte size of a yuva420p frame. */
export const yuvaFrameSize = (w: number, h: number): number => 2 * w * h + 2 * (w >> 1) * (h >> 1);

/** Copies planes into a yuva420p frame of width W, height H at an even offset (x, y). */
export function blitYuva(p: Planes, frame: Uint8Array, W: number, H: number, x: number, y: number): void {
  const ySize = W * H;
  const cW = W >> 1;
  const cSize = cW * (H >> 1);
  const uOff = ySize;
  const vOff = ySize + cSize;
  const aOff = ySize + 2 * cSize;
  for (let j = 0; j < p.height; j++) {
    const src = j * p.width;
    const dst = (y + j) * W + x;
    frame.set(p.y.subarray(src, src + p.width), dst);
    frame.set(p.a.subarray(src, src + p.width), aOff + dst);
  }
  const pcw = p.width >> 1;
  for (let j = 0; j < p.height >> 1; j++) {
    const src = j * pcw;
    const dst = ((y >> 1) + j) * cW + (x >> 1);
    frame.set(p.u.subarray(src, src + pcw), uOff + dst);
    frame.set(p.v.subarray(src, src + pcw), vOff + dst);
  }
}
