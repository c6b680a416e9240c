// Test helper: the committed docs/openapi.json, parsed with a zod view of the parts the
// OpenAPI tests read (schemas, parameters, security).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { Schema } from './json-schema-arbitrary.js';

const Param = z.object({ name: z.string(), in: z.string(), schema: Schema, example: z.unknown().optional() });
export type Param = z.infer<typeof Param>;

const OpenApiDoc = z.object({
  security: z.array(z.record(z.string(), z.array(z.string()))),
  components: z.object({
    schemas: z.record(z.string(), Schema),
    securitySchemes: z.record(z.string(), z.object({ type: z.string(), in: z.string().optional(), name: z.string().optional(), scheme: z.string().optional() })),
  }),
  paths: z.record(z.string(), z.record(z.string(), z.object({ parameters: z.array(Param).optional(), security: z.array(z.unknown()).optional() }))),
});

export const openApiDoc = OpenApiDoc.parse(JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')));
