// Every error leaves the server in the contract's error body, with the request id, and never
// with a stack trace. Routes throw ApiError; anything else becomes a contract error here.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS } from '../../shared/contract/index.js';
import type { ErrorBody, ErrorCode, ErrorDetail } from '../../shared/contract/index.js';
import { DISK_FULL_RETRY_SECONDS, isDiskFull } from '../jobs/disk-full.js';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function errorBody(code: ErrorCode, message: string, requestId: string, details?: ErrorDetail[]): ErrorBody {
  return { error: { code, message, ...(details?.length ? { details } : {}), requestId } };
}

export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply
    .code(err.status)
    .type('application/json; charset=utf-8')
    .send(errorBody(err.code, err.message, String(reply.request.id), err.details));
}

/** Maps Fastify's own errors (body parsing, limits, bad URLs) to contract codes. */
export function toApiError(err: FastifyError | Error): ApiError {
  if (err instanceof ApiError) return err;
  if (isDiskFull(err)) {
    return new ApiError('unavailable', "the server's disk is full, so nothing was saved; try again later", undefined, {
      'Retry-After': String(DISK_FULL_RETRY_SECONDS),
    });
  }
  const e = err as FastifyError;
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'the body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'the body is larger than the limit for this request');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? new ApiError('unsupported_media_type', 'send Content-Type: application/json')
        : new ApiError('bad_request', 'the Content-Length does not match the body');
    case 'FST_ERR_MAX_PARAM_LENGTH': // an id longer than any we hand out: unknown, like any other
      return new ApiError('not_found', 'nothing here has that id');
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new ApiError('bad_request', 'the URL is malformed');
  }
  if (e instanceof SyntaxError || e.code?.startsWith('FST_ERR_CTP_')) return new ApiError('invalid_json', 'the body is not valid JSON');
  if (typeof e.statusCode === 'number' && e.statusCode === 413) return new ApiError('payload_too_large', 'the body is too large');
  if (typeof e.statusCode === 'number' && e.statusCode === 415) return new ApiError('unsupported_media_type', 'send Content-Type: application/json');
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return new ApiError('bad_request', 'the request is malformed');
  return new ApiError('internal_error', 'something went wrong on the server; the request id identifies it in the logs');
}

export function handleError(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(err);
  if (apiError.code === 'internal_error') request.log.error({ err }, 'unexpected error');
  else if (apiError.code === 'unavailable' && !(err instanceof ApiError)) request.log.error({ err }, 'the disk is full');
  else if (!(err instanceof ApiError)) request.log.info({ code: (err as FastifyError).code }, apiError.message);
  return sendError(reply, apiError);
}
