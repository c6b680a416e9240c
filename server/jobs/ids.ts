// Time-sortable job ids (ULID: 48-bit ms timestamp + 80 random bits, Crockford base32).
// Monotonic within one process, so keyset paging on the id neither skips nor repeats a job
// while new jobs arrive: every new id is greater than every id handed out before.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function randomDigits(): number[] {
  const bytes = randomBytes(16);
  return Array.from({ length: 16 }, (_, i) => bytes[i]! % 32);
}

export class IdGenerator {
  private lastTime = -1;
  private lastRandom: number[] = [];

  constructor(private readonly prefix: string) {}

  /** Never returns an id at or below `floor` (e.g. the newest id already stored). */
  next(floor?: string | null): string {
    let now = Date.now();
    if (floor && floor.startsWith(this.prefix)) {
      const t = decodeTime(floor.slice(this.prefix.length));
      if (t > now) now = t;
    }
    if (now <= this.lastTime) {
      now = this.lastTime;
      this.increment();
    } else {
      this.lastTime = now;
      this.lastRandom = randomDigits();
    }
    let id = this.prefix + encodeTime(now) + this.lastRandom.map((d) => ALPHABET[d]).join('');
    if (floor && id <= floor) {
      // Same millisecond as the floor with a smaller random part: step past it.
      this.lastRandom = floor.slice(this.prefix.length + 10).split('').map((c) => ALPHABET.indexOf(c));
      this.increment();
      id = this.prefix + encodeTime(now) + this.lastRandom.map((d) => ALPHABET[d]).join('');
    }
    return id;
  }

  private increment(): void {
    for (let i = this.lastRandom.length - 1; i >= 0; i--) {
      if (this.lastRandom[i]! < 31) {
        this.lastRandom[i]!++;
        return;
      }
      this.lastRandom[i] = 0;
    }
    this.lastTime++; // 80 random bits exhausted within one ms: borrow the next ms
  }
}

export function decodeTime(ulid: string): number {
  let ms = 0;
  for (const c of ulid.slice(0, 10)) ms = ms * 32 + ALPHABET.indexOf(c);
  return ms;
}
