// JSON request bodies, stricter than JSON.parse: a key given twice is refused (400 invalid_json;
// parsers disagree on which one wins, so a proxy and this server could see different requests),
// and so is a `__proto__` key (422 naming the field; a prototype-pollution probe, never a field).
import { ApiError } from './errors.js';

const FORBIDDEN_KEYS = new Set(['__proto__']);

type Frame = { kind: 'object'; path: string; keys: Set<string> } | { kind: 'array'; path: string; index: number };

/** Calls onKey for every object key with its dotted path, in document order; `text` must be valid JSON. */
function walkKeys(text: string, onKey: (key: string, path: string, keys: Set<string>) => void): void {
  const stack: Frame[] = [];
  const childPath = (frame: Frame | undefined, key: string) => (frame?.path ? `${frame.path}.${key}` : key);
  let pendingKey: string | null = null; // the key whose value comes next
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const start = i++;
      while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && pendingKey === null) {
        // In valid JSON, a string in an object where no key is pending is the next key.
        const key = String(JSON.parse(text.slice(start, i))); // a JSON string token: always a string
        onKey(key, childPath(top, key), top.keys);
        top.keys.add(key);
        pendingKey = key;
      } else pendingKey = null;
      continue;
    }
    if (c === '{' || c === '[') {
      const top = stack[stack.length - 1];
      const path = top?.kind === 'array' ? `${top.path}[${top.index}]` : top ? childPath(top, pendingKey ?? '') : '';
      stack.push(c === '{' ? { kind: 'object', path, keys: new Set() } : { kind: 'array', path, index: 0 });
      pendingKey = null;
    } else if (c === '}' || c === ']') {
      stack.pop();
      pendingKey = null;
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'array') top.index++;
      pendingKey = null;
    }
    i++;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * The text of a JSON body: UTF-8 only (RFC 8259), refused rather than guessed, so a byte that
 * is not UTF-8 never becomes U+FFFD in a stored script.
 */
export function decodeJsonBody(body: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError('unsupported_media_type', `charset "${charset.slice(0, 40)}" is not supported; send JSON as UTF-8`);
  }
  try {
    return UTF8.decode(body);
  } catch {
    throw new ApiError('invalid_json', 'the body is not valid UTF-8');
  }
}

export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_json', 'the body is not valid JSON');
  }
  walkKeys(text, (key, path, keys) => {
    if (keys.has(key)) throw new ApiError('invalid_json', `the body has the key "${path}" more than once`);
    if (FORBIDDEN_KEYS.has(key)) throw new ApiError('validation_failed', `the body has a field "${path}", which is not allowed`, [{ path, message: 'is not allowed' }]);
  });
  return value;
}
