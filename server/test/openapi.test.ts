// The committed OpenAPI document must be what the schemas generate today.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { buildOpenApi } from '../openapi.js';
import { VERSION } from '../start.js';

it('docs/openapi.json matches the contract schemas (run `npm run openapi` after changing them)', () => {
  const committed: unknown = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
  expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApi(VERSION))));
});

it('describes every route of the contract', () => {
  const doc = buildOpenApi(VERSION) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(['/api/render', '/api/jobs', '/api/jobs/{id}', '/api/jobs/{id}/cancel', '/api/jobs/{id}/video', '/api/events', '/api/voices/{id}/sample', '/api/health', '/api/assets', '/api/assets/{id}', '/api/assets/{id}/content', '/api/assets/{id}/thumbnail.jpg']),
  );
});
