// Requests at the edges of HTTP, written byte for byte over a real socket: each is answered with
// the contract's error body and the status that fits (never an empty body, never a 500), and a
// body is read only as the UTF-8 JSON it says it is.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testServer, validRequest } from './helpers.js';
import type { TestServer } from './helpers.js';

let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await testServer();
  key = await s.userKey('edges');
});
afterAll(() => s.stop());

interface RawResponse {
  status: number;
  head: string;
  body: string;
}

function rawHttp(request: string | Buffer): Promise<RawResponse> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const out = Buffer.concat(chunks).toString('utf8');
      const at = out.indexOf('\r\n\r\n');
      const head = out.slice(0, at);
      resolve({ status: Number(head.split(' ')[1]), head, body: out.slice(at + 4) });
    });
  });
}

/** The contract's error body (sent with a Content-Length, not chunked), and its code. */
function errorCodeOf(r: RawResponse): string {
  expect(r.head).toMatch(/\r\ncontent-type: application\/json/i);
  const parsed = JSON.parse(r.body) as { error: { code: string; message: string; requestId: string } };
  expect(parsed.error.message.length).toBeGreaterThan(0);
  expect(parsed.error.requestId).toMatch(/^req_/);
  return parsed.error.code;
}

const auth = () => `Authorization: Bearer ${key}\r\n`;

function post(headers: string, body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Buffer.concat([
    Buffer.from(`POST /api/render HTTP/1.1\r\nHost: x\r\n${auth()}${headers}Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`),
    bytes,
  ]);
}

describe('request lines and headers', () => {
  it('refuses a raw # in the path as a malformed URL, not as a method', async () => {
    for (const path of ['/api/templates/#/thumbnail.jpg', '/api/jobs#x', '/api/voices/#/sample']) {
      const r = await rawHttp(`GET ${path} HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
      expect(r.status, path).toBe(400);
      expect(errorCodeOf(r), path).toBe('bad_request');
      expect(r.body, path).not.toMatch(/not allowed/);
    }
  });

  it('answers HTTP/1.1 without Host with the error body', async () => {
    const r = await rawHttp(`GET /api/jobs HTTP/1.1\r\n${auth()}Connection: close\r\n\r\n`);
    expect(r.status).toBe(400);
    expect(errorCodeOf(r)).toBe('bad_request');
  });

  it('answers an expectation it cannot meet with 417 and the error body', async () => {
    const r = await rawHttp(`GET /api/jobs HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n${auth()}Connection: close\r\n\r\n`);
    expect(r.status).toBe(417);
    expect(errorCodeOf(r)).toBe('bad_request');
  });

  it('answers QUERY with 405 and Allow', async () => {
    for (const headers of ['', 'Content-Type: application/json\r\nContent-Length: 2\r\n']) {
      const r = await rawHttp(`QUERY /api/jobs HTTP/1.1\r\nHost: x\r\n${auth()}${headers}Connection: close\r\n\r\n${headers ? '{}' : ''}`);
      expect(r.status).toBe(405);
      expect(r.head).toMatch(/\r\nallow: GET, HEAD\r\n/i);
      expect(errorCodeOf(r)).toBe('method_not_allowed');
    }
  });
});

describe('bodies', () => {
  const json = JSON.stringify(validRequest);

  it('refuses a compressed body with 415 instead of reading it as plain JSON', async () => {
    for (const encoding of ['gzip', 'deflate, gzip', 'br']) {
      const r = await rawHttp(post(`Content-Type: application/json\r\nContent-Encoding: ${encoding}\r\n`, json));
      expect(r.status, encoding).toBe(415);
      expect(errorCodeOf(r), encoding).toBe('unsupported_media_type');
    }
  });

  it('refuses a charset other than UTF-8 with 415', async () => {
    for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1']) {
      const r = await rawHttp(post(`Content-Type: application/json; charset=${charset}\r\n`, json));
      expect(r.status, charset).toBe(415);
      expect(errorCodeOf(r), charset).toBe('unsupported_media_type');
    }
    const ok = await rawHttp(post('Content-Type: application/json; charset="UTF-8"\r\n', json));
    expect(ok.status).toBe(202);
  });

  it('refuses invalid UTF-8 with 400 invalid_json instead of replacing it with U+FFFD', async () => {
    const bytes = Buffer.concat([Buffer.from('{"text":"Hello '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(` there","templateId":"newsroom","voiceId":"en-US-Ava"}`)]);
    const r = await rawHttp(post('Content-Type: application/json\r\n', bytes));
    expect(r.status).toBe(400);
    expect(errorCodeOf(r)).toBe('invalid_json');
  });

  it('refuses a lone surrogate in any text with 422 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ ...validRequest, text: 'Hello \ud800 there' }, 'text'],
      [{ ...validRequest, text: 'Hello \udc00' }, 'text'],
      [{ ...validRequest, title: 'Draft \udbff' }, 'title'],
      [{ templateId: 'newsroom', voiceId: 'en-US-Ava', scenes: [{ text: 'Fine.' }, { text: 'Broken \ud83d here' }] }, 'scenes[1].text'],
    ];
    for (const [body, path] of cases) {
      // JSON.stringify writes a lone surrogate as a \u escape, as a client's serialiser would.
      const r = await rawHttp(post('Content-Type: application/json\r\n', JSON.stringify(body)));
      expect(r.status, path).toBe(422);
      expect(errorCodeOf(r), path).toBe('validation_failed');
      expect((JSON.parse(r.body) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path), path).toContain(path);
    }
    const pair = await rawHttp(post('Content-Type: application/json\r\n', JSON.stringify({ ...validRequest, text: 'Hello 😀 there' })));
    expect(pair.status).toBe(202);
  });
});
