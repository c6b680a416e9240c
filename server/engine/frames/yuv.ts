// RGBA (Skia, premultiplied) → yuva420p planes, done in the engine once per changed layer so
// ffmpeg does not convert every frame's pixels again. BT.601 limited range: the same matrix
// ffmpeg's swscale uses for its own RGB → YUV, so layers meet without a seam.

export interface Planes {
  width: number;
  height: number;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
  a: Uint8Array;
  /** When present, also filled: each 2×2 block's mean alpha (what sprites blend chroma with). */
  ca?: Uint8Array;
}

/** A rectangle in pixels, all edges even. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The box around two (either may be null). */
export function unionBox(a: Box | null, b: Box | null): Box | null {
  if (!a || !b) return a ?? b;
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

export function allocPlanes(width: number, height: number): Planes {
  const c = (width >> 1) * (height >> 1);
  return { width, height, y: new Uint8Array(width * height), u: new Uint8Array(c), v: new Uint8Array(c), a: new Uint8Array(width * height) };
}

/**
 * The pixels as 32-bit words (r | g << 8 | b << 16 | a << 24 on little-endian machines), signed:
 * an opaque pixel as an unsigned word is over 2^31, which V8 cannot keep as a small integer, so
 * every read of one would allocate a number until the loop is optimised, and optimised code
 * would be thrown away again for it ("not a Smi"). Compare words with ===, take fields with >>> and &.
 */
export function words(px: Uint8Array): Int32Array {
  return px.byteOffset % 4 === 0 ? new Int32Array(px.buffer, px.byteOffset, px.length >> 2) : new Int32Array(px.slice().buffer);
}

/** BT.601 limited range, from straight 8-bit RGB (the one definition of the frames' colour conversion). */
export const luma = (r: number, g: number, b: number) => ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
export const chromaU = (r: number, g: number, b: number) => ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
export const chromaV = (r: number, g: number, b: number) => ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;

/**
 * Converts premultiplied RGBA (even width and height) to straight-alpha yuva420p planes, into
 * `out` when given, and only inside `box` when given (the rest of `out` is left as it was).
 */
export function rgbaToYuva(px: Uint8Array, width: number, height: number, out = allocPlanes(width, height), box?: Box): Planes {
  const { x0, y0, x1, y1 } = box ?? { x0: 0, y0: 0, x1: width, y1: height };
  const p = words(px);
  // Two loops in two functions: V8 optimises each (on-stack, mid-loop) with the other's types
  // already known, instead of one function optimised before its second loop ever ran.
  lumaAlpha(p, width, x0, y0, x1, y1, out.y, out.a);
  chroma(p, width, x0, y0, x1, y1, out.u, out.v, out.ca ?? null);
  return out;
}

function lumaAlpha(p: Int32Array, width: number, x0: number, y0: number, x1: number, y1: number, y: Uint8Array, a: Uint8Array): void {
  // Layers are mostly flat colour: a pixel like the one before reuses its luma.
  let lastW = 0;
  let lastY = 16;
  for (let j = y0; j < y1; j++) {
    for (let o = j * width + x0, end = j * width + x1; o < end; o++) {
      const w = p[o]!;
      const al = w >>> 24;
      a[o] = al;
      if (w === lastW) {
        y[o] = lastY;
      } else if (al === 255) {
        y[o] = lastY = luma(w & 255, (w >>> 8) & 255, (w >>> 16) & 255);
        lastW = w;
      } else if (al === 0) {
        y[o] = 16;
      } else {
        const k = 255 / al;
        y[o] = luma(Math.min(255, ((w & 255) * k + 0.5) | 0), Math.min(255, (((w >>> 8) & 255) * k + 0.5) | 0), Math.min(255, (((w >>> 16) & 255) * k + 0.5) | 0));
      }
    }
  }
}

/** Chroma: the alpha-weighted average colour of each 2×2 block (premultiplied sums / alpha sum). */
function chroma(p: Int32Array, width: number, x0: number, y0: number, x1: number, y1: number, u: Uint8Array, v: Uint8Array, ca: Uint8Array | null): void {
  const cw = width >> 1;
  // The last flat block seen; transparent to begin with, whose chroma is 128, 128 and alpha 0.
  let lastW = 0;
  let lastU = 128;
  let lastV = 128;
  for (let cj = y0 >> 1; cj < y1 >> 1; cj++) {
    let i0 = 2 * cj * width + x0;
    for (let o = cj * cw + (x0 >> 1), end = cj * cw + (x1 >> 1); o < end; o++, i0 += 2) {
      const i1 = i0 + width;
      const w0 = p[i0]!;
      const w1 = p[i0 + 1]!;
      const w2 = p[i1]!;
      const w3 = p[i1 + 1]!;
      if (w0 === lastW && w1 === lastW && w2 === lastW && w3 === lastW) {
        u[o] = lastU;
        v[o] = lastV;
        if (ca) ca[o] = lastW >>> 24;
        continue;
      }
      const as = (w0 >>> 24) + (w1 >>> 24) + (w2 >>> 24) + (w3 >>> 24);
      if (ca) ca[o] = (as + 2) >> 2;
      if (as === 0) {
        u[o] = 128;
        v[o] = 128;
        continue;
      }
      const rs = (w0 & 255) + (w1 & 255) + (w2 & 255) + (w3 & 255);
      const gs = ((w0 >>> 8) & 255) + ((w1 >>> 8) & 255) + ((w2 >>> 8) & 255) + ((w3 >>> 8) & 255);
      const bs = ((w0 >>> 16) & 255) + ((w1 >>> 16) & 255) + ((w2 >>> 16) & 255) + ((w3 >>> 16) & 255);
      // Opaque blocks stay in integers: the average is the sum / 4.
      const k = as === 1020 ? 0.25 : 255 / as;
      const r = rs * k;
      const g = gs * k;
      const b = bs * k;
      u[o] = chromaU(r, g, b);
      v[o] = chromaV(r, g, b);
      // A flat block: its colour is the next flat block's too.
      if (w0 === w1 && w0 === w2 && w0 === w3) {
        lastW = w0;
        lastU = u[o]!;
        lastV = v[o]!;
      }
    }
  }
}

/** A yuv420p frame back to opaque RGBA (BT.601 limited range, the inverse of the above): a composed frame as a still. */
export function yuvToRgba(frame: Uint8Array, width: number, height: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(width * height * 4);
  const cw = width >> 1;
  const us = width * height;
  const vs = us + cw * (height >> 1);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const c = (j >> 1) * cw + (i >> 1);
      const y = 1.164 * (frame[j * width + i]! - 16);
      const u = frame[us + c]! - 128;
      const v = frame[vs + c]! - 128;
      const o = (j * width + i) * 4;
      out[o] = y + 1.596 * v;
      out[o + 1] = y - 0.392 * u - 0.813 * v;
      out[o + 2] = y + 2.017 * u;
      out[o + 3] = 255;
    }
  }
  return out;
}
