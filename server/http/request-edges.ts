// Requests HTTP allows to be odd, refused before routing with the contract's error body: a raw
// `#` (a fragment is never part of a request; the router would cut the path there and answer
// for another one), HTTP/1.1 without Host (Node's own answer has no body), and a compressed
// body (this server does not decompress, so it must not read the bytes as plain JSON).
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';

export function refuseOddRequest(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.url?.includes('#')) throw new ApiError('bad_request', 'the URL holds a raw "#"; write it as %23');
  if (raw.httpVersion === '1.1' && raw.headers.host === undefined) throw new ApiError('bad_request', 'an HTTP/1.1 request needs a Host header');
  const encoding = raw.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new ApiError('unsupported_media_type', `Content-Encoding "${encoding.slice(0, 40)}" is not supported; send the body uncompressed`);
  }
}

/** The body of a 417 for an Expect other than 100-continue (Node's own has no body). */
export const EXPECTATION_FAILED = 'only "Expect: 100-continue" is supported';
