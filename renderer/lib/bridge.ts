// The renderer's only door to the world: `window.studio` (shared/bridge). Every rejection is
// turned into a readable `{ code, message, details }` so each view can show it where it happened.
import { plainError } from './plain-error.js';
import type { BridgeError, BridgeInput, BridgeMethod, BridgeOutputs, StudioApi, StudioEvent } from '../../shared/bridge/index.js';

export function studio(): StudioApi {
  const api = (window as unknown as { studio?: StudioApi }).studio;
  if (!api) throw toBridgeError({ code: 'internal_error', message: 'The app bridge is missing: open Presenter Studio from the desktop app or the web shell.' });
  return api;
}

export async function call<M extends BridgeMethod>(method: M, input: BridgeInput<M>): Promise<BridgeOutputs[M]> {
  try {
    return await studio().call(method, input);
  } catch (e) {
    throw toBridgeError(e);
  }
}

export function subscribe(listener: (event: StudioEvent) => void): () => void {
  try {
    return studio().subscribe(listener);
  } catch {
    // No bridge (a page opened outside the app): there is nothing to listen to.
    return () => {};
  }
}

export class StudioError extends Error implements BridgeError {
  code: string;
  details?: { path: string; message: string }[];
  retryAfterSeconds?: number;
  constructor(e: BridgeError) {
    super(e.message);
    this.code = e.code;
    if (e.details) this.details = e.details;
    if (e.retryAfterSeconds !== undefined) this.retryAfterSeconds = e.retryAfterSeconds;
  }
}

export function toBridgeError(e: unknown): StudioError {
  if (e instanceof StudioError) return e;
  if (e && typeof e === 'object') {
    const o = e as Partial<BridgeError> & { error?: Partial<BridgeError> };
    const inner = o.error && typeof o.error === 'object' ? o.error : o;
    if (typeof inner.message === 'string') {
      return new StudioError({
        code: typeof inner.code === 'string' ? inner.code : 'internal_error',
        message: inner.message,
        ...(Array.isArray(inner.details) ? { details: inner.details } : {}),
        ...(typeof inner.retryAfterSeconds === 'number' ? { retryAfterSeconds: inner.retryAfterSeconds } : {}),
      });
    }
  }
  return new StudioError({ code: 'internal_error', message: String(e) });
}

const HINTS: Record<string, string> = {
  offline: 'The render API cannot be reached right now.',
  unauthorized: 'The render API refused the key. Check the key in Settings.',
  no_key: 'No key is set for this profile. Add one in Settings.',
  rate_limited: 'Too many requests.',
  quota_exceeded: 'Your quota is used up.',
  unsupported: 'This render API does not offer that feature.',
};

/** One line a person can read; field details are appended so nothing is hidden. */
export function describeError(e: unknown): string {
  const err = toBridgeError(e);
  const hint = HINTS[err.code];
  let text = plainError(err.message || hint || 'Something went wrong.');
  text = text.charAt(0).toUpperCase() + text.slice(1);
  if (!/[.!?)]$/.test(text)) text += '.';
  if (hint && !text.toLowerCase().includes(hint.slice(0, 20).toLowerCase()) && err.code !== 'offline') text = `${text} ${hint}`;
  if (err.details?.length) text += ` (${err.details.map((d) => `${d.path}: ${d.message}`).join('; ')})`;
  if (err.retryAfterSeconds) text += ` Try again in ${err.retryAfterSeconds} s.`;
  return text;
}
