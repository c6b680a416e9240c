// API keys: user keys (one user's jobs) and service keys (a proxy acting for the user named in
// X-User-Id). A key is shown once when created; only its SHA-256 hash is stored. A key reads
// `psk_<keyId>_<secret>`: the id finds the row, the hash is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type KeyKind = 'user' | 'service';

export interface KeyRecord {
  id: string;
  kind: KeyKind;
  /** The owner of a user key; null for a service key. */
  userId: string | null;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface KeyStore {
  /** Stores a new key and returns it with the plain key, which is never stored. */
  create(input: { kind: KeyKind; userId: string | null; label?: string | null }): Promise<{ record: KeyRecord; key: string }>;
  list(): Promise<KeyRecord[]>;
  /** Revokes by key id; false when no such active key. */
  revoke(id: string): Promise<boolean>;
  /** The active key record for a presented key, or null (unknown, malformed or revoked). */
  verify(presented: string): Promise<KeyRecord | null>;
}

export const KEY_PATTERN = /^psk_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function newKey(): { id: string; key: string } {
  const id = Array.from(randomBytes(12), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
  return { id, key: `psk_${id}_${randomBytes(32).toString('base64url')}` };
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A key as both stores keep it (table api_keys): the hash only, never the key. */
export interface KeyRow {
  id: string;
  kind: KeyKind;
  user_id: string | null;
  label: string | null;
  hash: Buffer;
  created_at: string;
  revoked_at: string | null;
}

export function keyRowToRecord(row: KeyRow): KeyRecord {
  return { id: row.id, kind: row.kind, userId: row.user_id, label: row.label, createdAt: row.created_at, revokedAt: row.revoked_at };
}
