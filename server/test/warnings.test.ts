// A script in another language than its voice, in a writing the voice reads, is rendered (not
// refused) and the job says why it may sound wrong: `warnings` on the created job, in the job list
// and on GET /api/jobs/{id}. A writing the voice cannot read at all is refused (422 on the text).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, testServer, validRequest } from './helpers.js';
import type { TestServer } from './helpers.js';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await testServer();
  key = await s.userKey('wanda');
});
afterAll(() => s.stop());

type Body = { id: string; warnings?: { code: string; message: string; language: string; voiceLocale: string }[] };
const post = async (json: unknown) => {
  const r = await call(`${s.url}/api/render`, { key, json });
  expect(r.status).toBe(202);
  return r.body as Body;
};

describe('language warnings on render jobs', () => {
  it('warns when a German script goes to an English voice, and still queues the job', async () => {
    const text = 'Guten Abend und willkommen. Heute zeigen wir die Zahlen, die wir für das Quartal haben.';
    const job = await post({ ...validRequest, text });
    expect(job.warnings).toEqual([{ code: 'language_mismatch', language: 'de', voiceLocale: 'en-US', message: expect.stringMatching(/voice speaks English/) }]);
    const again = (await call(`${s.url}/api/jobs/${job.id}`, { key })).body as Body;
    expect(again.warnings).toEqual(job.warnings);
    const list = (await call(`${s.url}/api/jobs?limit=1`, { key })).body as { jobs: Body[] };
    expect(list.jobs[0]!.warnings).toEqual(job.warnings);
  });

  it('refuses an Arabic or Chinese script for an English voice, naming the field and the voices that speak it', async () => {
    const arabic = 'مرحبا بكم في الاستوديو، هذا هو التحديث الفصلي للشركة.';
    const r = await call(`${s.url}/api/render`, { key, json: { ...validRequest, text: arabic } });
    expect(r.status).toBe(422);
    expect((r.body as { error: { details: { path: string; message: string }[] } }).error.details).toEqual([
      { path: 'text', message: expect.stringMatching(/written in Arabic, which the voice \w+ \(en-US\) cannot read; choose a voice that speaks Arabic: Hamed, Zariyah/) },
    ]);
    const scenes = await call(`${s.url}/api/render`, {
      key,
      json: { templateId: validRequest.templateId, voiceId: validRequest.voiceId, scenes: [{ text: 'Hello and welcome to the studio, everyone.' }, { text: '今天天气很好，我们去公园散步吧。欢迎收看本期节目。' }] },
    });
    expect(scenes.status).toBe(422);
    expect((scenes.body as { error: { details: { path: string }[] } }).error.details.map((d) => d.path)).toEqual(['scenes[1].text']);
    // The same Arabic script with an Arabic voice is accepted.
    expect((await post({ ...validRequest, voiceId: 'ar-SA-Hamed', text: arabic })).warnings).toEqual([]);
  });

  it('has no warning when the voice speaks the script\'s language, or when the script is too short to tell', async () => {
    expect((await post(validRequest)).warnings).toEqual([]);
    expect((await post({ ...validRequest, voiceId: 'de-DE-Katja', text: 'Guten Abend und willkommen. Heute zeigen wir die Zahlen, die wir für das Quartal haben.' })).warnings).toEqual([]);
    expect((await post({ ...validRequest, text: 'Hallo Welt!' })).warnings).toEqual([]);
  });
});
