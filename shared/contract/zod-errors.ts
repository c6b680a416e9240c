// Turns zod issues into the contract's error details: a dotted path naming the field and a
// message a person can act on (unknown fields are named, to catch `templateID`-style typos).
// An array index is written as in code: `scenes[2].background.assetId`.
import type { z } from 'zod';
import type { ErrorDetail } from './schemas.js';

export function issuesToDetails(error: z.ZodError, prefix = ''): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  for (const issue of error.issues) {
    const base = [prefix, ...issue.path].reduce<string>(
      (at, seg) => (typeof seg === 'number' ? `${at}[${seg}]` : seg === '' ? at : at ? `${at}.${String(seg)}` : String(seg)),
      '',
    );
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: base ? `${base}.${key}` : key, message: 'unknown field' });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      out.push({ path: base || '(body)', message: 'is required' });
    } else {
      out.push({ path: base || '(body)', message: issue.message });
    }
  }
  return out;
}

export function describeDetails(details: ErrorDetail[]): string {
  return details.map((d) => `${d.path}: ${d.message}`).join('; ');
}
