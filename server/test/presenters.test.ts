// Extension `presenters` over a real socket: the built-in cast is listed with portraits the
// server draws, any presenter may speak with any template (presenterId at the top level and
// per scene), and a presenter nobody has answers 422 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job, PresenterList } from '../../shared/contract/index.js';
import type { RenderTask } from '../engine/types.js';
import { createTestEngine } from './fixtures/test-engine.js';
import { call, errorCode, testServer, waitFor, type TestServer } from './helpers.js';

let server: TestServer;
let alice: string;
const tasks: RenderTask[] = [];

beforeAll(async () => {
  const engine = createTestEngine();
  server = await testServer({ engine: { ...engine, render: (task: RenderTask) => (tasks.push(task), engine.render(task)) }, concurrency: 1 });
  alice = await server.userKey('alice');
});
afterAll(() => server.stop());

const render = (body: object) => call(`${server.url}/api/render`, { key: alice, json: { templateId: 'newsroom', voiceId: 'en-US-Ava', ...body } });

describe('GET /api/presenters', () => {
  it('lists at least twelve built-in presenters of every gender, each with a portrait', async () => {
    const r = await call(`${server.url}/api/presenters`, { key: alice });
    expect(r.status).toBe(200);
    const { presenters } = PresenterList.parse(r.body);
    expect(presenters.length).toBeGreaterThanOrEqual(12);
    expect(new Set(presenters.map((p) => p.id)).size).toBe(presenters.length);
    expect(presenters.every((p) => p.builtIn && p.kind === 'vector')).toBe(true);
    expect(new Set(presenters.map((p) => p.gender))).toEqual(new Set(['female', 'male', 'neutral']));
    const img = await fetch(`${server.url}${presenters[7]!.thumbnailUrl}`, { headers: { authorization: `Bearer ${alice}` } });
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await img.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(5000);
    expect((await fetch(`${server.url}/api/presenters/nobody/thumbnail.png`, { headers: { authorization: `Bearer ${alice}` } })).status).toBe(404);
  });

  it('needs a key', async () => {
    expect((await call(`${server.url}/api/presenters`, {})).status).toBe(401);
  });
});

describe('presenterId', () => {
  it('answers 422 naming each field that names an unknown presenter', async () => {
    const r = await render({ presenterId: 'ghost', scenes: [{ text: 'One.' }, { text: 'Two.', presenterId: 'nobody' }] });
    expect(r.status).toBe(422);
    expect(errorCode(r)).toBe('validation_failed');
    const paths = (r.body.error.details as { path: string; message: string }[]).map((d) => d.path).sort();
    expect(paths).toEqual(['presenterId', 'scenes[1].presenterId']);
    expect(r.body.error.details[0].message).toMatch(/GET \/api\/presenters/);
  });

  it('puts any presenter in front of any template, carried by the job to the engine', async () => {
    const r = await render({ text: 'Hello from a new face.', templateId: 'classroom', presenterId: 'amara' });
    expect(r.status, r.text).toBe(202);
    const job = Job.parse(r.body);
    expect(job.presenterId).toBe('amara');
    const task = await waitFor(async () => tasks.find((t) => t.jobId === job.id));
    expect(task.presenterId).toBe('amara');
    const s = await render({ presenterId: 'walter', scenes: [{ text: 'One.' }, { text: 'Two.', presenterId: 'aisha', templateId: 'corporate-briefing' }] });
    expect(s.status, s.text).toBe(202);
    expect(Job.parse(s.body).scenes!.map((x) => x.presenterId)).toEqual(['walter', 'aisha']);
    const fetched = await call(`${server.url}/api/jobs/${job.id}`, { key: alice });
    expect(Job.parse(fetched.body).presenterId).toBe('amara');
  });
});
