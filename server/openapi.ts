// The OpenAPI 3.1 document of the render API, generated from the contract's zod schemas
// (z.toJSONSchema), so it cannot say anything the schemas do not, narrowed by the shipped
// catalog (template and voice ids, each template's aspect ratios): whatever the document calls
// valid, the server accepts (server/test/openapi-examples.test.ts runs its examples and
// boundary values; the property suite fuzzes from its schemas). `npm run openapi` writes it to
// docs/openapi.json; a test fails when the committed file drifts.
import { z } from 'zod';
import {
  ASSET_KINDS,
  ASSET_LIMITS,
  ASSET_MEDIA_TYPES,
  AspectRatio,
  Asset,
  AssetList,
  ERROR_STATUS,
  ErrorBody,
  Health,
  Job,
  JobList,
  JOB_STATUSES,
  LIMITS,
  RenderRequest,
  TemplateList,
  PresenterList,
  VoiceList,
  VoicePackStatus,
} from '../shared/contract/index.js';
import { loadCatalog, type Catalog } from './catalog.js';
import { EVENT_STREAM_LIMITS } from './http/events.js';

type Json = Record<string, unknown>;

function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const errorResponse = (codes: (keyof typeof ERROR_STATUS)[]) => ({
  description: `Error body; codes: ${codes.join(', ')}`,
  content: json('ErrorBody'),
});

function errors(...codes: (keyof typeof ERROR_STATUS)[]): Json {
  const byStatus = new Map<number, (keyof typeof ERROR_STATUS)[]>();
  for (const c of ['unauthorized', 'internal_error', ...codes] as (keyof typeof ERROR_STATUS)[]) {
    const st = ERROR_STATUS[c];
    byStatus.set(st, [...(byStatus.get(st) ?? []), c]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([st, cs]) => [
        String(st),
        st === 429 ? { ...errorResponse(cs), headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : errorResponse(cs),
      ]),
  );
}

const jobId = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Job id (job_…)' };
const assetId = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Asset id (ast_…)' };
const userHeader = {
  name: 'X-User-Id',
  in: 'header',
  required: false,
  schema: { type: 'string', pattern: LIMITS.userIdPattern.source },
  description: 'With a service key: the end user the request acts for (required on user-scoped endpoints).',
};
const retryAfter = { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } };

/**
 * The render request: the contract's schema, with template and voice ids from the catalog and,
 * per template, the aspect ratios it supports (anyOf), so only renderable requests are valid.
 */
function renderRequestSchema(catalog: Catalog): Json {
  const base = schema(RenderRequest, 'input') as Json & { properties: Record<string, Json> };
  const voiceIds = catalog.voices.flatMap((v) => [v.id, ...(v.aliases ?? [])]);
  const first = catalog.templates[0]!;
  // The examples render as they are: with voices that ship (a neural voice would download first).
  const shipped = catalog.voices.filter((v) => v.downloadBytes === undefined);
  const lastShipped = shipped[shipped.length - 1]!;
  const templateIds = catalog.templates.map((t) => t.id);
  const scenes = base.properties.scenes as Json & { items: Json & { properties: Record<string, Json> } };
  const scene = scenes.items.properties;
  return {
    ...base,
    properties: {
      ...base.properties,
      text: { ...base.properties.text, description: `The narration: at most ${LIMITS.textMaxChars} characters after trimming, with at least one letter or digit. Either text or scenes.` },
      scenes: {
        ...scenes,
        description: `Extension "scenes": the video as 1–${LIMITS.scenesMax} scenes (instead of text), at most ${LIMITS.totalTextMaxChars} characters of text in all. A missing field of a scene comes from the request's top level, then the template.`,
        items: {
          ...scenes.items,
          properties: {
            ...scene,
            templateId: { ...scene.templateId, enum: templateIds, description: "A template id; it must support the video's aspect ratio" },
            voiceId: { ...scene.voiceId, enum: voiceIds },
            presenterId: { ...scene.presenterId, description: 'Extension "presenters": a presenter id (GET /api/presenters: the built-in ones and your own)' },
            avatar: { ...scene.avatar, description: "The presenter's placement in this scene (missing fields from params.avatar); null: no presenter" },
            background: {
              ...scene.background,
              description:
                'One of your assets (GET /api/assets): an image, a video or a document. page only for a document (default 1, at most its pages); trimStart and loop only for a video (trimStart below its length). null: the template\'s background.',
            },
          },
        },
      },
      templateId: { ...base.properties.templateId, enum: templateIds, description: 'A template id (GET /api/templates)' },
      voiceId: { ...base.properties.voiceId, enum: voiceIds, description: 'A voice id or alias (GET /api/voices)' },
      presenterId: { ...base.properties.presenterId, description: 'Extension "presenters": who speaks (GET /api/presenters), in every scene that names none (default: each template\'s suggestion)' },
    },
    // text or scenes, never both.
    oneOf: [{ required: ['text'] }, { required: ['scenes'] }],
    anyOf: catalog.templates.map((t) => ({
      properties: { templateId: { const: t.id }, params: { properties: { aspectRatio: { enum: t.aspectRatios } } } },
    })),
    examples: [
      { text: 'Welcome to the quarterly update.', templateId: first.id, voiceId: catalog.voices[0]!.id },
      {
        text: 'Hello! Here is what changed this week.',
        templateId: first.id,
        voiceId: lastShipped.aliases?.at(-1) ?? lastShipped.id,
        params: { aspectRatio: first.aspectRatios[first.aspectRatios.length - 1]!, avatar: { scale: 0.8, x: 0.25, y: 0.9 } },
      },
    ],
  };
}

export function buildOpenApi(version: string, catalog: Catalog = loadCatalog()): Json {
  // Query values arrive as strings; documented here by what they mean (JobListQuery checks them).
  const statuses = `(${JOB_STATUSES.join('|')})`;
  const listParams = [
    { name: 'status', schema: { type: 'string', pattern: `^${statuses}(,${statuses})*$` }, description: 'Comma list of statuses', example: 'queued,rendering' },
    { name: 'q', schema: { type: 'string', maxLength: 500 }, description: 'Text contains, case-insensitive', example: 'quarterly' },
    {
      name: 'limit',
      schema: { type: 'integer', minimum: 1, maximum: LIMITS.listMaxLimit, default: LIMITS.listDefaultLimit },
      description: `Jobs per page, 1–${LIMITS.listMaxLimit}`,
      example: LIMITS.listDefaultLimit,
    },
    { name: 'cursor', schema: { type: 'string', maxLength: 200 }, description: 'Opaque: the nextCursor of the previous page, nothing else' },
  ].map((p) => ({ ...p, in: 'query', required: false }));
  const media = (type: string, summary: string, ranges: boolean, id: Json = jobId) => ({
    get: {
      summary,
      parameters: [id, userHeader, ...(ranges ? [{ name: 'Range', in: 'header', required: false, schema: { type: 'string' } }] : [])],
      responses: {
        '200': { description: summary, headers: { ETag: { schema: { type: 'string' } } }, content: { [type]: { schema: { type: 'string', format: 'binary' } } } },
        ...(ranges ? { '206': { description: 'A byte range', content: { [type]: { schema: { type: 'string', format: 'binary' } } } } } : {}),
        '304': { description: 'Not modified (If-None-Match)' },
        ...errors('user_required', 'forbidden', 'not_found', ...(id === jobId ? (['not_ready'] as const) : []), ...(ranges ? (['range_not_satisfiable'] as const) : [])),
      },
    },
  });

  const assetFile = (summary: string, type: string, ranges: boolean) => media(type, summary, ranges, assetId);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Presenter Studio render API',
      version,
      description:
        'Render jobs for AI presenter videos. Generated from shared/contract (zod) and the shipped catalog. Authenticate with either `Authorization: Bearer <key>` or `X-API-Key: <key>` (one of the two security schemes). Refinement of the contract: each voice lists its other id forms in `aliases`; SSE also sends `job_deleted` events. Extensions (listed in GET /api/health): title, assets, scenes.',
    },
    servers: [{ url: 'http://127.0.0.1:4510' }],
    security: [{ bearer: [] }, { apiKey: [] }],
    paths: {
      '/api/render': {
        post: {
          summary: 'Create a render job',
          parameters: [
            userHeader,
            { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: LIMITS.idempotencyKeyMaxChars } },
          ],
          requestBody: { required: true, content: json('RenderRequest') },
          responses: {
            '200': { description: 'Replayed (same Idempotency-Key and body)', headers: { 'Idempotent-Replayed': { schema: { type: 'string', const: 'true' } } }, content: json('Job') },
            '202': { description: 'Accepted', headers: { Location: { schema: { type: 'string' } } }, content: json('Job') },
            ...errors('invalid_json', 'user_required', 'forbidden', 'idempotency_conflict', 'payload_too_large', 'unsupported_media_type', 'validation_failed', 'rate_limited', 'quota_exceeded'),
          },
        },
      },
      '/api/jobs': {
        get: {
          summary: "The caller's jobs, newest first",
          parameters: [userHeader, ...listParams],
          responses: { '200': { description: 'A page of jobs', content: json('JobList') }, ...errors('user_required', 'forbidden', 'validation_failed') },
        },
      },
      '/api/jobs/{id}': {
        get: { summary: 'One job', parameters: [jobId, userHeader], responses: { '200': { description: 'The job', content: json('Job') }, ...errors('user_required', 'forbidden', 'not_found') } },
        delete: {
          summary: 'Delete a finished job and its files',
          parameters: [jobId, userHeader],
          responses: { '204': { description: 'Deleted' }, ...errors('user_required', 'forbidden', 'not_found', 'invalid_transition') },
        },
      },
      '/api/jobs/{id}/cancel': {
        post: {
          summary: 'Cancel a queued or rendering job',
          parameters: [jobId, userHeader],
          responses: { '200': { description: 'The canceled job', content: json('Job') }, ...errors('user_required', 'forbidden', 'not_found', 'invalid_transition') },
        },
      },
      '/api/jobs/{id}/video': media('video/mp4', 'The video (byte ranges)', true),
      '/api/jobs/{id}/captions.vtt': media('text/vtt', 'Word-timed captions', false),
      '/api/jobs/{id}/thumbnail.jpg': media('image/jpeg', 'A still of the video', false),
      '/api/events': {
        get: {
          summary: "Server-sent events: `job` with the Job JSON on every change to the caller's jobs; comment heartbeat every 15 s",
          description: `Open streams are capped (defaults: ${EVENT_STREAM_LIMITS.perUser} per user, ${EVENT_STREAM_LIMITS.total} in all; 429 rate_limited past them).`,
          parameters: [userHeader],
          responses: {
            '200': { description: 'An event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
            ...errors('user_required', 'forbidden', 'rate_limited'),
          },
        },
      },
      '/api/templates': {
        get: { summary: 'Scene templates', responses: { '200': { description: 'Templates', content: json('TemplateList') }, ...errors() } },
      },
      '/api/templates/{id}/thumbnail.jpg': {
        get: {
          summary: 'A still of a template',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'aspectRatio', in: 'query', required: false, schema: schema(AspectRatio), description: "One of the template's aspectRatios (default: its default)" },
          ],
          responses: {
            '200': { description: 'JPEG', content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } },
            ...errors('not_found', 'validation_failed', 'unavailable'),
          },
        },
      },
      '/api/presenters': {
        get: { summary: 'Extension "presenters": the built-in presenters and your own', responses: { '200': { description: 'Presenters', content: json('PresenterList') }, ...errors() } },
      },
      '/api/presenters/{id}/thumbnail.png': {
        get: {
          summary: 'A portrait of a built-in presenter',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'PNG', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } },
            ...errors('not_found', 'unavailable'),
          },
        },
      },
      '/api/voices': {
        get: { summary: 'Voices', responses: { '200': { description: 'Voices', content: json('VoiceList') }, ...errors() } },
      },
      '/api/voices/{id}/sample': {
        get: {
          summary: 'A short spoken sample (either id form)',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'WAV', content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } } },
            ...errors('not_found', 'unavailable'),
          },
        },
      },
      '/api/voices/{id}/pack': {
        get: {
          summary: "A voice's download state (builtin for voices that ship with the studio; a neural pack's progress)",
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'State', content: json('VoicePackStatus') }, ...errors('not_found', 'unavailable') },
        },
        post: {
          summary: "Starts downloading a neural voice's pack (size and SHA-256 checked, kept in the studio's cache); answers at once",
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'State', content: json('VoicePackStatus') }, ...errors('not_found', 'unavailable') },
        },
      },
      '/api/assets': {
        post: {
          summary: 'Extension "assets": upload a file (the body is its bytes)',
          description: `Sniffed and probed before it is kept. Limits (defaults): ${ASSET_KINDS.map((k) => `${k} ${ASSET_LIMITS.maxBytes[k] / 1024 ** 2} MiB`).join(', ')}; ${ASSET_LIMITS.quotaBytes / 1024 ** 3} GiB per user. Images at most ${ASSET_LIMITS.maxPixels / 1e6} megapixels and ${ASSET_LIMITS.maxSide} px a side.`,
          parameters: [userHeader, { name: 'name', in: 'query', required: true, schema: { type: 'string', minLength: 1 }, description: 'The file name (kept cleaned, at most 255 bytes)' }],
          requestBody: {
            required: true,
            content: Object.fromEntries(Object.keys(ASSET_MEDIA_TYPES).map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
          },
          responses: {
            '201': { description: 'Stored', headers: { Location: { schema: { type: 'string' } } }, content: json('Asset') },
            ...errors('bad_request', 'user_required', 'forbidden', 'payload_too_large', 'unsupported_media_type', 'validation_failed', 'quota_exceeded'),
          },
        },
        get: {
          summary: 'Extension "assets": the caller\'s files, newest first',
          parameters: [
            userHeader,
            ...[
              { name: 'kind', schema: { type: 'string', enum: [...ASSET_KINDS] }, description: 'Only this kind' },
              { name: 'q', schema: { type: 'string', maxLength: 500 }, description: 'Name contains, case-insensitive' },
              listParams.find((p) => p.name === 'limit')!,
              listParams.find((p) => p.name === 'cursor')!,
            ].map((p) => ({ ...p, in: 'query', required: false })),
          ],
          responses: { '200': { description: 'A page of assets', content: json('AssetList') }, ...errors('user_required', 'forbidden', 'validation_failed') },
        },
      },
      '/api/assets/{id}': {
        get: { summary: 'One asset', parameters: [assetId, userHeader], responses: { '200': { description: 'The asset', content: json('Asset') }, ...errors('user_required', 'forbidden', 'not_found') } },
        delete: {
          summary: 'Delete an asset and its files (not while a queued or rendering job uses it)',
          parameters: [assetId, userHeader],
          responses: { '204': { description: 'Deleted' }, ...errors('user_required', 'forbidden', 'not_found', 'asset_in_use') },
        },
      },
      '/api/assets/{id}/content': assetFile('The file as uploaded (its media type, nosniff; documents as attachment; byte ranges)', '*/*', true),
      '/api/assets/{id}/thumbnail.jpg': assetFile('A JPEG thumbnail', 'image/jpeg', false),
      '/api/health': {
        get: { summary: 'Health (no key needed)', security: [], responses: { '200': { description: 'OK', content: json('Health') } } },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same key as the bearer scheme, as a header' },
      },
      headers: retryAfter,
      schemas: {
        RenderRequest: renderRequestSchema(catalog),
        Job: schema(Job),
        JobList: schema(JobList),
        TemplateList: schema(TemplateList),
        PresenterList: schema(PresenterList),
        VoiceList: schema(VoiceList),
        VoicePackStatus: schema(VoicePackStatus),
        Asset: schema(Asset),
        AssetList: schema(AssetList),
        Health: schema(Health),
        ErrorBody: schema(ErrorBody),
      },
    },
  };
}
