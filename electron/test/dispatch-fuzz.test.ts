// Any input to any bridge method gets a result or a { code, message } error — never a thrown
// object, never an internal error — checked against the real handlers (with the render API
// unreachable, so nothing leaves the machine). Inputs are generated from each method's own
// schema (its JSON Schema form), so most pass validation and reach the handler, then mutated
// (a field dropped, a typo'd field added, a value of the wrong type), which validation must refuse.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { z } from 'zod';
import { BRIDGE_ERROR_CODES, BRIDGE_METHODS, bridgeInputs, type BridgeMethod } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createStudio } from '../services/studio.js';
import { arbitrary, type Schema } from '../../server/test/json-schema-arbitrary.js';
import { ROOT, tempDir, testLogger } from './helpers.js';

/** Breaks a valid input one way; the schema then says whether it is still valid. */
const mutation = fc.constantFrom('drop', 'typo', 'wrong-type', 'replace');
function mutate(value: unknown, how: string, junk: unknown): unknown {
  if (how === 'replace' || value === null || typeof value !== 'object' || Array.isArray(value)) return junk;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (how === 'typo' || keys.length === 0) return { ...copy, [`${keys[0] ?? 'field'}X`]: junk };
  const key = keys[0]!;
  if (how === 'drop') delete copy[key];
  else copy[key] = typeof copy[key] === 'number' ? String(copy[key]) : 42;
  return copy;
}

describe('bridge dispatch', () => {
  const dataDir = tempDir();
  const env = { baseUrl: 'http://127.0.0.1:9', key: 'fuzz-key-123', keyHeader: 'bearer' as const };
  const studio = createStudio({
    shell: 'web', version: '0.1.0', dataDir, resourcesDir: join(ROOT, 'resources'),
    profiles: new ProfileStore({ dataDir, secrets: new MemorySecretStore(), env, editable: false, local: false }),
    env, localStudio: null, userId: 'fuzz', mediaBase: '/media', log: testLogger(), clientOptions: { retries: 0, timeoutMs: 500 },
  });
  const known = new Set<string>(BRIDGE_ERROR_CODES);
  const schemas = Object.fromEntries(
    BRIDGE_METHODS.map((m) => [m, z.toJSONSchema(bridgeInputs[m] as z.ZodType, { io: 'input', unrepresentable: 'any' }) as Schema]),
  ) as Record<BridgeMethod, Schema>;

  function checkAnswer(r: Awaited<ReturnType<typeof dispatch>>) {
    if (!r.ok) {
      expect(known.has(r.error.code), r.error.code).toBe(true);
      expect(r.error.code).not.toBe('internal_error');
      expect(typeof r.error.message).toBe('string');
    }
    expect(JSON.stringify(r)).not.toContain('fuzz-key-123');
  }

  it('runs the handler for every input its schema accepts, and answers with a value or a known error', async () => {
    const reached = new Set<string>();
    for (const method of BRIDGE_METHODS) {
      await fc.assert(
        fc.asyncProperty(arbitrary(schemas[method]), async (input) => {
          const valid = bridgeInputs[method].safeParse(input).success;
          const r = await dispatch(studio.handlers, method, input);
          checkAnswer(r);
          if (valid) {
            // Validation passed: whatever the handler said, it was not the input's shape.
            if (!r.ok) expect(r.error.code, `${method} ${JSON.stringify(input)}`).not.toBe('invalid_input');
            reached.add(method);
          }
        }),
        { numRuns: 25 },
      );
    }
    // The generator is worth something only if it reaches every handler.
    expect(BRIDGE_METHODS.filter((m) => !reached.has(m))).toEqual([]);
  });

  it('refuses a mutated input the schema refuses with invalid_input, naming where', async () => {
    let refused = 0;
    for (const method of BRIDGE_METHODS) {
      await fc.assert(
        fc.asyncProperty(arbitrary(schemas[method]), mutation, fc.anything({ withObjectString: true, withNullPrototype: true }), async (input, how, junk) => {
          const bad = mutate(input, how, junk);
          // The transports send null for "no input", which dispatch reads as none.
          if (bridgeInputs[method].safeParse(bad ?? undefined).success) return;
          const r = await dispatch(studio.handlers, method, bad);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.error.code, `${method} ${how}`).toBe('invalid_input');
          refused++;
        }),
        { numRuns: 15 },
      );
    }
    expect(refused).toBeGreaterThan(BRIDGE_METHODS.length * 5);
  });

  it('answers unknown methods and anything at all without throwing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BRIDGE_METHODS, 'nope', 'constructor', 'toString', '__proto__'), fc.anything({ withObjectString: true, withNullPrototype: true }), async (method, input) => {
        checkAnswer(await dispatch(studio.handlers, method, input));
      }),
      { numRuns: 200 },
    );
    await studio.close();
  });
});
