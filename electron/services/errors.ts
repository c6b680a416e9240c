// Errors that cross the bridge: always `{ code, message }`, never a thrown object or a stack.
import type { z } from 'zod';
import { issuesToDetails, describeDetails } from '../../shared/contract/index.js';
import type { BridgeError, BridgeErrorCode } from '../../shared/bridge/index.js';

export class BridgeFailure extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
    readonly details?: { path: string; message: string }[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'BridgeFailure';
  }
  toJSON(): BridgeError {
    const out: BridgeError = { code: this.code, message: this.message };
    if (this.details?.length) out.details = this.details;
    if (this.retryAfterSeconds !== undefined) out.retryAfterSeconds = this.retryAfterSeconds;
    return out;
  }
}

export function invalidInput(error: z.ZodError, prefix = ''): BridgeFailure {
  const details = issuesToDetails(error, prefix);
  return new BridgeFailure('invalid_input', describeDetails(details) || 'invalid input', details);
}

/** Anything thrown inside the privileged side becomes a BridgeError; unexpected ones say little. */
export function toBridgeError(e: unknown): BridgeError {
  if (e instanceof BridgeFailure) return e.toJSON();
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return { code: 'not_found', message: 'not found' };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return { code: 'io_error', message: `file system error (${code})` };
  return { code: 'internal_error', message: 'something went wrong on the privileged side' };
}
