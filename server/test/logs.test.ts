// Structured logs: JSON lines carrying the request id the client saw, and never a key.
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { call, testServer, validRequest } from './helpers.js';

it('logs JSON lines with the request id of each answer and no key material', async () => {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  const s = await testServer({ logLevel: 'info', logStream: stream });
  try {
    const key = await s.userKey('logger');
    const created = await call(`${s.url}/api/render`, { key, json: validRequest });
    const bad = await call(`${s.url}/api/jobs?limit=0`, { key });
    await new Promise((r) => setTimeout(r, 100));
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const res of [created, bad]) {
      const id = res.headers.get('x-request-id');
      const mine = entries.filter((e) => e.requestId === id);
      expect(mine.some((e) => e.msg === 'request completed' && (e.res as { statusCode: number }).statusCode === res.status)).toBe(true);
    }
    expect(entries.some((e) => e.msg === 'job created' && e.jobId === created.body.id)).toBe(true);
    expect(lines.join('\n')).not.toContain(key.split('_')[2]!);
  } finally {
    await s.stop();
  }
});
