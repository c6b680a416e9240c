// The frames the engine hands to ffmpeg: each one is the previous frame with only what changed
// composed again, in buffers that ffmpeg gives back in its own time. Whatever that order, every
// frame must be exactly the frame composed whole from the same pose and caption.
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { captionAt, createAnimation, drawCaption, poseAt, TEMPLATES, type SpeechTimeline } from '../../../shared/scene/index.js';
import { FrameCompositor } from '../frames/frame-compositor.js';
import { planRegions } from '../frames/regions.js';
import { composedSource, FramePool, prepareScene } from '../frames/scene-frames.js';
import { framePlanes, yuvFrameSize } from '../frames/sprites.js';

/** Eight seconds of made-up speech: a word every 0.3 s, a phoneme every 40–120 ms, a pause in the middle. */
function timeline(): SpeechTimeline {
  const words = 'Hello creators, this is a quick test of frames that change only where they must. Then a pause, and more words after it.'.split(' ');
  const phonemes = ['h', 'ə', 'l', 'oʊ', 'k', 'ɹ', 'i', 'eɪ', 't', 'ɚ', 'z', 'm', 'f', 'u', 'aɪ', 'p', 'ɔ', 'v', 'ɛ'];
  const tl: SpeechTimeline = { durationSeconds: 8, words: [], phonemes: [] };
  let t = 0.2;
  for (const [i, text] of words.entries()) {
    if (i === 15) t += 0.9; // a pause: the mouth rests
    tl.words.push({ text, start: t, end: t + 0.27 });
    for (let p = t; p < t + 0.27; ) {
      const d = 0.04 + ((i * 7 + p * 100) % 9) / 100;
      tl.phonemes.push({ phoneme: phonemes[(i * 3 + Math.round(p * 50)) % phonemes.length]!, start: p, end: Math.min(t + 0.27, p + d) });
      p += d;
    }
    t += 0.3;
  }
  return tl;
}

/** A word every 0.25 s in many scripts, with marks above and below, emoji and a word too long for a line. */
function manyScripts(): SpeechTimeline {
  const words = ('Ünïcode façade, naïve jalapeño! Tiếng Việt đẹp. Ελληνικά Привет мир. مرحبا بالعالم שלום עולם 你好世界。 こんにちは、世界。 '
    + '안녕하세요 🎉👍 Pneumonoultramicroscopicsilicovolcanoconiosis gqjpy ÅÉÎÕÜ.').split(' ');
  const tl: SpeechTimeline = { durationSeconds: words.length * 0.25 + 0.5, words: [], phonemes: [] };
  words.forEach((text, i) => tl.words.push({ text, start: 0.2 + i * 0.25, end: 0.4 + i * 0.25 }));
  return tl;
}

/** Fails unless every frame composedSource hands out equals the frame composed whole (a fresh caption read back each frame). */
async function expectWholeFrames(template: string, aspect: '16:9' | '9:16' | '1:1', tl: SpeechTimeline): Promise<number> {
  const task = { params: { aspectRatio: aspect, avatar: { scale: 0.6, x: 0.6, y: 0.5 } }, shortSide: 720 as const };
  const scene = await prepareScene(template, task, tl.words);
  const anim = createAnimation(tl);
  const pool = new FramePool();
  const source = composedSource(scene, anim, pool);

  // The reference: a separate compositor composing every frame whole.
  const { layout } = scene;
  const { width: W, height: H } = layout.size;
  const plan = planRegions(layout);
  const whole = new FrameCompositor(layout, scene.rig?.layers ?? null, scene.background, plan);
  whole.cutAll(); // before the source lets the art go
  const cr = plan.caption!;
  const cap = createCanvas(cr.width, cr.height);
  const cctx = cap.getContext('2d');
  const expected = new Uint8Array(yuvFrameSize(W, H));

  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const queued: Buffer[] = [];
  let last: Buffer | null = null;
  let changed = 0;
  for (let f = 0; f < Math.ceil(tl.durationSeconds * 30); f++) {
    const t = f / 30;
    const buf = source.frame(t);
    // As a render does once its thumbnail is drawn: the rest is cut and the art let go.
    if (f === 30) source.artDone();
    if (buf !== last) {
      changed++;
      pool.hold(buf); // as a write to ffmpeg's stdin does, until ffmpeg has read it
      queued.push(buf);
      last = buf;
    }
    // ffmpeg reads 0–2 of the queued frames meanwhile, oldest first.
    for (let n = Math.floor(rand() * 3); n > 0 && queued.length; n--) pool.release(queued.shift()!);

    whole.setPose(poseAt(anim, t));
    cctx.clearRect(0, 0, cr.width, cr.height);
    cctx.save();
    cctx.translate(-cr.x, -cr.y);
    drawCaption(cctx, layout, captionAt(scene.pages, scene.words, t));
    cctx.restore();
    whole.setCaption(cap.data(), cr);
    whole.compose(framePlanes(expected, W, H));
    if (!buf.equals(expected)) {
      let first = 0;
      while (buf[first] === expected[first]) first++;
      const plane = first < W * H ? `y at (${first % W}, ${Math.floor(first / W)})` : 'chroma';
      expect.fail(`${template} ${aspect}: frame ${f} differs from the frame composed whole, first in ${plane}`);
    }
  }
  return changed;
}

describe('frames handed to ffmpeg', () => {
  for (const [template, aspect] of [['newsroom', '16:9'], ['social-short', '9:16']] as const) {
    it(`are the frames composed whole, ${template} ${aspect}, however late ffmpeg gives buffers back`, async () => {
      const changed = await expectWholeFrames(template, aspect, timeline());
      // Something changed often (mouth, blinks, captions), but not every frame.
      expect(changed).toBeGreaterThan(40);
      expect(changed).toBeLessThan(8 * 30);
    });
  }

  // When the spoken word moves on within a page, only the two words' rectangles are read back
  // from Skia: whatever the script, its marks and the caption style, nothing outside them changes.
  it('are the frames composed whole in every caption style, in many scripts', async () => {
    const aspects = ['16:9', '9:16', '1:1'] as const;
    for (const [i, t] of TEMPLATES.entries()) await expectWholeFrames(t.id, aspects[i % 3]!, manyScripts());
  });
});
