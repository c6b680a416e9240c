// Test helper: values a JSON Schema (the subset docs/openapi.json uses) calls valid, as
// fast-check arbitraries, and a checker for the same subset. Lets the property suite fuzz the
// server with exactly what the published document promises is accepted.
import fc from 'fast-check';
import { z } from 'zod';

export interface Schema {
  /** One type, or several ("string" or "null": ["string", "null"]). */
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  /** false, or the schema of every other property (a record) — generation leaves those out. */
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  /** Exactly one alternative holds (e.g. "text or scenes, never both" as two `required` lists). */
  oneOf?: Schema[];
  /** false: nothing past a tuple's positions. */
  items?: Schema | false;
  /** A tuple's positions (the items after them follow `items`). */
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  examples?: unknown[];
}

/** The same subset, to parse a document read from disk (other keywords are annotations, dropped). */
export const Schema: z.ZodType<Schema> = z.lazy(() =>
  z.object({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    enum: z.array(z.unknown()).optional(),
    const: z.unknown().optional(),
    pattern: z.string().optional(),
    format: z.string().optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    properties: z.record(z.string(), Schema).optional(),
    required: z.array(z.string()).optional(),
    additionalProperties: z.union([z.boolean(), Schema]).optional(),
    anyOf: z.array(Schema).optional(),
    oneOf: z.array(Schema).optional(),
    items: z.union([Schema, z.literal(false)]).optional(),
    prefixItems: z.array(Schema).optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    examples: z.array(z.unknown()).optional(),
  }),
);

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
};

/** Does the value satisfy the schema (the subset above)? */
export function matches(schema: Schema, value: unknown): boolean {
  if (schema.const !== undefined && value !== schema.const) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  if (schema.anyOf && !schema.anyOf.some((s) => matches(s, value))) return false;
  if (schema.oneOf && schema.oneOf.filter((s) => matches(s, value)).length !== 1) return false;
  if (schema.required && value && typeof value === 'object' && schema.required.some((k) => !(k in value))) return false;
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    const prefix = schema.prefixItems ?? [];
    if (!prefix.every((s, i) => i >= value.length || matches(s, value[i]))) return false;
    const rest = value.slice(prefix.length);
    if (schema.items === false && rest.length) return false;
    if (schema.items && !rest.every((v) => matches(schema.items as Schema, v))) return false;
  }
  if (schema.type !== undefined && ![schema.type].flat().some((t) => TYPE_CHECKS[t]?.(value))) return false;
  if (schema.type === 'string' || typeof value === 'string') {
    if (typeof value !== 'string') return false;
    const chars = [...value].length; // JSON Schema counts code points
    if (schema.minLength !== undefined && chars < schema.minLength) return false;
    if (schema.maxLength !== undefined && chars > schema.maxLength) return false;
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return false;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
  }
  if (schema.properties && value && typeof value === 'object') {
    for (const [k, s] of Object.entries(schema.properties)) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined && !matches(s, v)) return false;
    }
  }
  return true;
}

/** An arbitrary of values the schema accepts. Strings stay short unless the schema needs them long. */
export function arbitrary(schema: Schema): fc.Arbitrary<unknown> {
  const base = baseArbitrary(schema);
  return schema.anyOf || schema.oneOf ? base.filter((v) => matches(schema, v)) : base;
}

function baseArbitrary(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => baseArbitrary({ ...schema, type })));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  // A bare anyOf or oneOf (e.g. a string or null) is one of its alternatives; next to a type, it narrows it (see arbitrary).
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && !schema.type) return fc.oneof(...alternatives.map(arbitrary));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'string': {
      // An anchored pattern describes the whole string: generate from it; otherwise filter.
      if (schema.pattern?.startsWith('^') && schema.pattern.endsWith('$')) return fc.stringMatching(new RegExp(schema.pattern)).filter((v) => matches(schema, v));
      if (schema.format === 'uri') return fc.webUrl();
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 60, Math.max(minLength, 60));
      const s = fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'binary', minLength, maxLength }));
      return schema.pattern ? s.filter((v) => matches(schema, v)) : s;
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (schema.prefixItems) {
        // A tuple: its required positions, then each optional one present or not.
        const need = schema.minItems ?? schema.prefixItems.length;
        const max = Math.min(schema.maxItems ?? schema.prefixItems.length, schema.prefixItems.length);
        return fc.integer({ min: need, max }).chain((n) => fc.tuple(...schema.prefixItems!.slice(0, n).map(arbitrary)));
      }
      return fc.array(arbitrary(schema.items || {}), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 5, 5)) });
    case 'object': {
      const props = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, arbitrary(s)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue();
  }
}
