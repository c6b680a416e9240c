// The authenticated caller, attached to each request by the auth hook in app.ts.
import type { FastifyRequest } from 'fastify';
import type { KeyRecord } from '../keys/key-store.js';
import { resolveUser } from './auth.js';
import { ApiError } from './errors.js';

const KEY = Symbol('principal');

interface WithKey {
  [KEY]?: KeyRecord;
}

export function setKey(request: FastifyRequest, key: KeyRecord): void {
  (request as unknown as WithKey)[KEY] = key;
}

export function keyOf(request: FastifyRequest): KeyRecord {
  const key = (request as unknown as WithKey)[KEY];
  if (!key) throw new ApiError('unauthorized', 'this endpoint needs a key');
  return key;
}

/** The user a user-scoped endpoint acts for. */
export function userOf(request: FastifyRequest): string {
  return resolveUser(request, keyOf(request));
}
