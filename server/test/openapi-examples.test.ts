// The published OpenAPI document, taken at its word: every example it gives and every boundary
// value of its schemas goes through the real server over a socket. On the boundary → accepted;
// one step outside → 422 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorCode, testServer } from './helpers.js';
import type { TestServer } from './helpers.js';
import { openApiDoc } from './openapi-doc.js';
import { sampleLine } from '../engine/speech/voice-sample.js';
import { VoiceList } from '../../shared/contract/index.js';
import type { Schema } from './json-schema-arbitrary.js';

const doc = openApiDoc;
const renderSchema = doc.components.schemas.RenderRequest!;

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await testServer({ limits: { createsPerMinute: 100_000 } });
  key = await s.userKey('examples');
});
afterAll(() => s.stop());

const render = (body: unknown) => call(`${s.url}/api/render`, { key, json: body });
const example = renderSchema.examples![0] as Record<string, unknown>;

/** Every leaf of a schema with its dotted path. */
function leaves(schema: Schema, path = ''): [string, Schema][] {
  if (!schema.properties) return path ? [[path, schema]] : [];
  return Object.entries(schema.properties).flatMap(([k, sub]) => leaves(sub, path ? `${path}.${k}` : k));
}

/** The example with one field set (params.avatar.x → { params: { avatar: { x } } }). */
function withField(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(base);
  const keys = path.split('.');
  let at = out;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
  at[keys[keys.length - 1]!] = value;
  return out;
}

describe('the documented render request', () => {
  it('accepts every example', async () => {
    expect(renderSchema.examples!.length).toBeGreaterThan(0);
    for (const ex of renderSchema.examples!) {
      const r = await render(ex);
      expect(r.status, r.text).toBe(202);
    }
  });

  // The brand's and the music's fields name the caller's assets (a logo, a font, a sound), and
  // presenterId a presenter: a value is valid only with one stored behind it, so they are
  // exercised with real ones in brand.test.ts, music.test.ts and presenters.test.ts.
  const own = (path: string) => !path.startsWith('brand.') && !path.startsWith('music.') && path !== 'presenterId';
  const numeric = leaves(renderSchema).filter(([p, sc]) => own(p) && sc.type === 'number');
  const strings = leaves(renderSchema).filter(([p, sc]) => own(p) && sc.type === 'string' && sc.maxLength !== undefined && !sc.enum);

  it('documents the avatar and thumbnail bounds and the text rules', () => {
    expect(Object.fromEntries(numeric.map(([p, sc]) => [p, [sc.minimum, sc.maximum]]))).toEqual({
      'params.avatar.scale': [0.1, 1.5],
      'params.avatar.x': [0, 1],
      'params.avatar.y': [0, 1],
      'params.thumbnailAt': [0, 86_400],
    });
    expect(renderSchema.properties!.text).toMatchObject({ minLength: 1, maxLength: 5000, pattern: expect.any(String) });
  });

  it('accepts every numeric field at its bounds and refuses it just outside, naming the field', async () => {
    for (const [path, sc] of numeric) {
      for (const v of [sc.minimum!, sc.maximum!]) expect((await render(withField(example, path, v))).status, `${path}=${v}`).toBe(202);
      for (const v of [sc.minimum! - 0.001, sc.maximum! + 0.001]) {
        const r = await render(withField(example, path, v));
        expect(r.status, `${path}=${v}`).toBe(422);
        expect(errorCode(r)).toBe('validation_failed');
        expect(r.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
      }
    }
  });

  it('accepts every string at its length bounds and refuses one character more', async () => {
    for (const [path, sc] of strings) {
      expect((await render(withField(example, path, 'a'.repeat(sc.maxLength!)))).status, path).toBe(202);
      const over = await render(withField(example, path, 'a'.repeat(sc.maxLength! + 1)));
      expect(over.status, path).toBe(422);
      expect(over.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
      if (sc.minLength) {
        const under = await render(withField(example, path, ''));
        expect(under.status, path).toBe(422);
      }
    }
    // The letter rule (the text's pattern): punctuation only is refused.
    const noLetters = await render(withField(example, 'text', '?! …'));
    expect(noLetters.status).toBe(422);
    expect(noLetters.body.error.details.map((d: { path: string }) => d.path)).toEqual(['text']);
  });

  it('accepts every documented template with each aspect ratio its branch allows, and every voice id', async () => {
    for (const branch of renderSchema.anyOf!) {
      const templateId = branch.properties!.templateId!.const;
      for (const aspectRatio of branch.properties!.params!.properties!.aspectRatio!.enum!) {
        const r = await render({ ...example, templateId, params: { aspectRatio } });
        expect(r.status, `${String(templateId)} ${String(aspectRatio)}: ${r.text}`).toBe(202);
      }
    }
    // Each voice reads its own language's sample line: writing a voice cannot read is refused.
    const voices = VoiceList.parse((await call(`${s.url}/api/voices`, { key })).body).voices;
    for (const voiceId of renderSchema.properties!.voiceId!.enum!) {
      const id = String(voiceId);
      const voice = voices.find((v) => v.id === id || v.aliases?.includes(id));
      expect(voice, id).toBeDefined();
      const text = sampleLine(voice!);
      const r = await render({ ...example, voiceId, text });
      expect(r.status, `${id}: ${r.text}`).toBe(202);
    }
  });
});

describe('the documented job list', () => {
  const params = doc.paths['/api/jobs']!.get!.parameters!;
  const list = (q: Record<string, string>) => call(`${s.url}/api/jobs?${new URLSearchParams(q)}`, { key });

  it('accepts every parameter example', async () => {
    for (const p of params.filter((x) => x.in === 'query' && x.example !== undefined)) {
      expect((await list({ [p.name]: String(p.example) })).status, p.name).toBe(200);
    }
  });

  it('documents limit as 1–100 and answers its bounds: 200 on them, 422 outside', async () => {
    const limit = params.find((p) => p.name === 'limit')!.schema;
    expect(limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    for (const v of [limit.minimum!, limit.maximum!]) expect((await list({ limit: String(v) })).status).toBe(200);
    for (const v of [limit.minimum! - 1, limit.maximum! + 1]) {
      const r = await list({ limit: String(v) });
      expect(r.status).toBe(422);
      expect(r.body.error.details.map((d: { path: string }) => d.path)).toEqual(['limit']);
    }
    const q = params.find((p) => p.name === 'q')!.schema;
    expect((await list({ q: 'a'.repeat(q.maxLength!) })).status).toBe(200);
    expect((await list({ q: 'a'.repeat(q.maxLength! + 1) })).status).toBe(422);
  });
});

describe('the documented security and enums', () => {
  it('offers Bearer and X-API-Key as alternative security schemes, never as a required header', async () => {
    expect(doc.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(doc.components.securitySchemes).toMatchObject({ bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } });
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        const names = (op.parameters ?? []).map((p) => p.name.toLowerCase());
        expect(names).not.toContain('authorization');
        expect(names).not.toContain('x-api-key');
      }
    }
    expect((await call(`${s.url}/api/jobs`, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await call(`${s.url}/api/jobs`, { key })).status).toBe(200);
  });

  it("documents the template thumbnail's aspectRatio as the contract's enum", () => {
    const p = doc.paths['/api/templates/{id}/thumbnail.jpg']!.get!.parameters!.find((x) => x.name === 'aspectRatio')!;
    expect(p.schema.enum).toEqual(['16:9', '9:16', '1:1', '4:5', '4:3']);
  });
});
