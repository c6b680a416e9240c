// API keys: user keys (one user's jobs) and service keys (a proxy acting for the user named in
// X-User-Id). A key is shown once when created; only its SHA-256 hash is stored. A key reads
// `psk_<keyId>_<secret>`: the id finds the row, the hash is compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

const KeyKind = z.enum(['user', 'service']);
export type KeyKind = z.infer<typeof KeyKind>;

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

export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A key as both stores keep it (table api_keys): the hash only, never the key. */
const KeyRow = z.object({
  id: z.string(),
  kind: KeyKind,
  user_id: z.string().nullable(),
  label: z.string().nullable(),
  hash: z.instanceof(Uint8Array),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type KeyRow = z.infer<typeof KeyRow>;

/** A row as read back from either store, checked rather than trusted (a bad row throws, naming the key). */
export function parseKeyRow(raw: unknown): KeyRow {
  const parsed = KeyRow.safeParse(raw);
  if (parsed.success) return parsed.data;
  const id = typeof raw === 'object' && raw !== null && 'id' in raw ? String(raw.id) : 'unknown id';
  throw new Error(`the stored key ${id} is unreadable: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
}

/** A row read back from either store as its record (parsed first). */
export const readKeyRecord = (raw: unknown): KeyRecord => keyRowToRecord(parseKeyRow(raw));

export function keyRowToRecord(row: KeyRow): KeyRecord {
  return { id: row.id, kind: row.kind, userId: row.user_id, label: row.label, createdAt: row.created_at, revokedAt: row.revoked_at };
}
