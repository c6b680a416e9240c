// MediaPipe solutions for the renderer. Their WebAssembly glue makes functions with `new
// Function`, which the app's CSP never allows, so each runs in a hidden frame of its own
// (renderer/face-mesh/*.html, served under mediapipe/face_mesh/ with their own CSP) and answers
// by postMessage: the page posts { id, image } (an ImageBitmap, transferred) and gets back
// { id, …answer } or { id, error }.
import { z } from 'zod';

const DIR = 'mediapipe/face_mesh';
/** The model loads once per frame; a photo is answered in well under this on a slow machine. */
const ANSWER_MS = 120_000;

const frames = new Map<string, Promise<HTMLIFrameElement>>();
let nextId = 1;

function frame(page: string, title: string): Promise<HTMLIFrameElement> {
  let f = frames.get(page);
  if (f) return f;
  f = new Promise<HTMLIFrameElement>((ok, fail) => {
    const el = document.createElement('iframe');
    el.src = `${DIR}/${page}`;
    el.title = title;
    el.hidden = true;
    const onReady = (e: MessageEvent) => {
      if (e.source !== el.contentWindow || e.origin !== location.origin || !(e.data as { ready?: unknown })?.ready) return;
      removeEventListener('message', onReady);
      ok(el);
    };
    addEventListener('message', onReady);
    el.onerror = () => {
      frames.delete(page);
      fail(new Error(`the ${title.toLowerCase()} could not be loaded`));
    };
    document.body.append(el);
  });
  frames.set(page, f);
  return f;
}

const Failure = z.object({ id: z.number(), error: z.string() });

/** Sends an image to a runner page and parses its answer with `schema` (which must carry `id`). */
export async function askRunner<T extends { id: number }>(page: string, title: string, image: ImageBitmapSource, schema: z.ZodType<T>): Promise<T> {
  let waiting: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => {
    waiting = setTimeout(() => fail(new Error(`the ${title.toLowerCase()} did not start`)), ANSWER_MS);
  });
  const f = await Promise.race([frame(page, title), late]).finally(() => clearTimeout(waiting));
  const bitmap = await createImageBitmap(image);
  const id = nextId++;
  const Answer = z.union([schema, Failure]);
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => done(() => fail(new Error(`the ${title.toLowerCase()} did not answer`))), ANSWER_MS);
    const onAnswer = (e: MessageEvent) => {
      if (e.source !== f.contentWindow || e.origin !== location.origin) return;
      const a = Answer.safeParse(e.data);
      if (!a.success || a.data.id !== id) return;
      const answer = a.data;
      done(() => ('error' in answer && typeof answer.error === 'string' ? fail(new Error(answer.error)) : ok(answer as T)));
    };
    const done = (then: () => void) => {
      clearTimeout(timer);
      removeEventListener('message', onAnswer);
      then();
    };
    addEventListener('message', onAnswer);
    f.contentWindow!.postMessage({ id, image: bitmap }, location.origin, [bitmap]);
  });
}
