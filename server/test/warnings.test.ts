// A script in another language than its voice is rendered (not refused) and the job says why
// it may sound wrong: `warnings` on the created job, in the job list and on GET /api/jobs/{id}.
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
  it('warns when a Chinese, Arabic or German script goes to an English voice, and still queues the job', async () => {
    for (const [text, language] of [
      ['今天天气很好，我们去公园散步吧。欢迎收看本期节目。', 'zh'],
      ['مرحبا بكم في الاستوديو، هذا هو التحديث الفصلي للشركة.', 'ar'],
      ['Guten Abend und willkommen. Heute zeigen wir die Zahlen, die wir für das Quartal haben.', 'de'],
    ] as const) {
      const job = await post({ ...validRequest, text });
      expect(job.warnings).toEqual([{ code: 'language_mismatch', language, voiceLocale: 'en-US', message: expect.stringMatching(/voice speaks English/) }]);
      const again = (await call(`${s.url}/api/jobs/${job.id}`, { key })).body as Body;
      expect(again.warnings).toEqual(job.warnings);
    }
    const list = (await call(`${s.url}/api/jobs?limit=3`, { key })).body as { jobs: Body[] };
    expect(list.jobs.every((j) => j.warnings?.length === 1)).toBe(true);
  });

  it('has no warning when the voice speaks the script\'s language, or when the script is too short to tell', async () => {
    expect((await post(validRequest)).warnings).toEqual([]);
    expect((await post({ ...validRequest, voiceId: 'de-DE-Katja', text: 'Guten Abend und willkommen. Heute zeigen wir die Zahlen, die wir für das Quartal haben.' })).warnings).toEqual([]);
    expect((await post({ ...validRequest, text: 'Hallo Welt!' })).warnings).toEqual([]);
  });
});
