// Who is calling: a user key acts for its user; a service key acts for the user named in
// X-User-Id. Keys come as `Authorization: Bearer <key>` or `X-API-Key: <key>`.
import type { FastifyRequest } from 'fastify';
import { LIMITS } from '../../shared/contract/index.js';
import type { KeyRecord, KeyStore } from '../keys/key-store.js';
import { ApiError } from './errors.js';

export function presentedKey(request: FastifyRequest): string | null {
  const auth = request.headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : null;
  }
  const x = request.headers['x-api-key'];
  return typeof x === 'string' && x.trim() ? x.trim() : null;
}

export async function authenticate(request: FastifyRequest, keys: KeyStore): Promise<KeyRecord> {
  const key = presentedKey(request);
  if (!key) throw new ApiError('unauthorized', 'send your key as "Authorization: Bearer <key>" or "X-API-Key: <key>"');
  const record = await keys.verify(key);
  if (!record) throw new ApiError('unauthorized', 'the key is unknown or revoked');
  return record;
}

/** The user a request acts for (user-scoped endpoints). */
export function resolveUser(request: FastifyRequest, key: KeyRecord): string {
  const raw = request.headers['x-user-id'];
  const named = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.join(',') : undefined;
  if (key.kind === 'user') {
    if (named !== undefined && named !== key.userId) {
      throw new ApiError('forbidden', 'a user key acts only for its own user; X-User-Id names someone else');
    }
    return key.userId!;
  }
  if (named === undefined || named === '') {
    throw new ApiError('user_required', 'a service key must name the end user in X-User-Id');
  }
  if (!LIMITS.userIdPattern.test(named)) {
    throw new ApiError('user_required', 'X-User-Id must be 1–128 characters of A-Z a-z 0-9 . _ : @ -');
  }
  return named;
}
