// Any input to any bridge method gets a result or a { code, message } error — never a thrown
// object, never an internal error — checked with generated inputs against the real handlers
// (with the render API unreachable, so nothing leaves the machine).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { BRIDGE_ERROR_CODES, BRIDGE_METHODS } from '../../shared/bridge/index.js';
import { dispatch } from '../services/dispatch.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createStudio } from '../services/studio.js';
import { ROOT, tempDir } from './helpers.js';

describe('bridge dispatch', () => {
  it('answers every generated input with a value or a known error code', async () => {
    const dataDir = tempDir();
    const studio = createStudio({
      shell: 'web', version: '0.1.0', dataDir, resourcesDir: join(ROOT, 'resources'),
      profiles: new ProfileStore({ dataDir, secrets: new MemorySecretStore(), env: { baseUrl: 'http://127.0.0.1:9', key: 'fuzz-key-123', keyHeader: 'bearer' }, editable: false, local: false }),
      env: { baseUrl: 'http://127.0.0.1:9', key: 'fuzz-key-123', keyHeader: 'bearer' },
      localStudio: null, userId: 'fuzz', mediaBase: '/media', clientOptions: { retries: 0, timeoutMs: 500 },
    });
    const known = new Set<string>(BRIDGE_ERROR_CODES);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...BRIDGE_METHODS, 'nope', 'constructor', 'toString'), fc.anything({ withObjectString: true, withNullPrototype: true }), async (method, input) => {
        const r = await dispatch(studio.handlers, method, input);
        if (!r.ok) {
          expect(known.has(r.error.code)).toBe(true);
          expect(r.error.code).not.toBe('internal_error');
          expect(typeof r.error.message).toBe('string');
        }
        expect(JSON.stringify(r)).not.toContain('fuzz-key-123');
      }),
      { numRuns: 600 },
    );
    await studio.close();
  });
});
