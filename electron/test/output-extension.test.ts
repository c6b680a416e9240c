// The output settings reach only a render API whose health lists "output": an older API of
// ours (a double that answers its health without it and records what it is sent) gets the
// request without them, and refuses nothing; choosing a thumbnail there is unsupported, saying why.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job, RenderRequest } from '../../shared/contract/index.js';
import { dispatch } from '../services/dispatch.js';
import type { Studio } from '../services/studio.js';
import { remoteOnlyStudio, tempDir } from './helpers.js';

const studios: Studio[] = [];
const servers: Server[] = [];

function job(id: string, req: RenderRequest): Job {
  const at = new Date().toISOString();
  return {
    id, status: 'queued', title: null, text: req.text ?? '', templateId: req.templateId, voiceId: req.voiceId,
    params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.5, y: 0.6 }, ...req.params } as Job['params'],
    progress: 0, createdAt: at, updatedAt: at, startedAt: null, finishedAt: null, output: null, error: null, warnings: [],
  };
}

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** A render API of ours whose health lists `extensions`; it keeps every render request's body. */
async function apiWith(extensions: string[]): Promise<{ url: string; renders: RenderRequest[]; asked: string[] }> {
  const renders: RenderRequest[] = [];
  const asked: string[] = [];
  let n = 0;
  const server = createServer((req, res) => {
    void (async () => {
      asked.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/api/health') return res.end(JSON.stringify({ status: 'ok', version: '0.9.0', extensions }));
      if (req.method === 'POST' && req.url === '/api/render') {
        const r = (await body(req)) as RenderRequest;
        renders.push(r);
        res.writeHead(202);
        return res.end(JSON.stringify(job(`job_0000000000000000000000000${++n}`, r)));
      }
      res.writeHead(404);
      res.end(JSON.stringify({ error: { code: 'not_found', message: 'no such route', requestId: 'req_1' } }));
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, renders, asked };
}

async function studioOn(url: string): Promise<Studio> {
  const studio = await remoteOnlyStudio(tempDir(), { timeoutMs: 10_000, retries: 0, backoffMs: 50 });
  studios.push(studio);
  const saved = await dispatch(studio.handlers, 'profiles.save', { name: 'Team', baseUrl: url, keyHeader: 'bearer', key: 'psk_test_key' });
  if (!saved.ok) throw new Error(saved.error.message);
  await dispatch(studio.handlers, 'profiles.select', { id: (saved.value as { id: string }).id });
  return studio;
}

const request: RenderRequest = {
  text: 'Hello there.', templateId: 'newsroom', voiceId: 'en-US-Ava',
  params: { aspectRatio: '16:9', resolution: '1080p', captions: 'file', captionPosition: 'top' },
};

afterAll(async () => {
  await Promise.all(studios.map((s) => s.close()));
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe('output settings and the API\'s extensions', () => {
  it('an API listing "output" is sent them', async () => {
    const api = await apiWith(['title', 'assets', 'scenes', 'output']);
    const studio = await studioOn(api.url);
    const r = await dispatch(studio.handlers, 'jobs.submit', { request });
    expect(r.ok).toBe(true);
    expect(api.renders[0]!.params).toEqual(request.params);
  });

  it('an API without it gets the request without them, and choosing a thumbnail is unsupported', async () => {
    const api = await apiWith(['title']);
    const studio = await studioOn(api.url);
    const r = await dispatch(studio.handlers, 'jobs.submit', { request });
    expect(r.ok).toBe(true);
    expect(api.renders[0]!.params).toEqual({ aspectRatio: '16:9' });
    const thumb = await dispatch(studio.handlers, 'jobs.thumbnail', { id: 'job_00000000000000000000000001', at: 1 });
    expect(thumb.ok).toBe(false);
    if (!thumb.ok) {
      expect(thumb.error.code).toBe('unsupported');
      expect(thumb.error.message).toContain('"output"');
    }
    expect(api.asked.filter((a) => a.includes('/thumbnail'))).toEqual([]);
  });

  it('a bad time is refused at the bridge, naming the field', async () => {
    const api = await apiWith(['output']);
    const studio = await studioOn(api.url);
    const r = await dispatch(studio.handlers, 'jobs.thumbnail', { id: 'job_00000000000000000000000001', at: -1 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/at/);
  });
});
