// A finished job's files: the video (byte ranges, ETag), its captions and its thumbnail.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OutputFile } from '../storage/output-storage.js';
import { OUTPUT_FILES } from '../storage/output-storage.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { notFound } from './routes-jobs.js';
import { userOf } from './principal.js';
import { readVttCues, writeSrt } from '../engine/encode/vtt.js';

/** SubRip's media type (de facto; none is registered): a browser downloads it rather than show it as text. */
export const SRT_TYPE = 'application/x-subrip; charset=utf-8';

type Range = { start: number; end: number };

/**
 * Parses a single `bytes=` range; null: serve the whole file; 'unsatisfiable': 416. An invalid
 * range (last before first, `bytes=5-1`) is ignored, as RFC 9110 says; one starting past the end
 * is unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): Range | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // not a form we serve partially: whole file
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

export function mediaRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const serve = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, file: OutputFile) => {
    const job = await ctx.store.get(request.params.id, userOf(request));
    if (!job) throw notFound();
    if (job.status !== 'completed') {
      throw new ApiError('not_ready', `the job is ${job.status}; its files exist once it is completed`);
    }
    if (OUTPUT_FILES[file].optional && job.params.captions === 'none') {
      throw new ApiError('not_found', 'this job was rendered with captions "none": it has no caption file');
    }
    const stored = await ctx.storage.stat(job.id, file);
    if (!stored) throw new ApiError('not_found', 'the file of this job is gone');
    reply.header('ETag', stored.etag).header('Cache-Control', 'private, max-age=31536000, immutable');
    reply.header('Accept-Ranges', 'bytes').type(OUTPUT_FILES[file].type);
    const inm = request.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === stored.etag || t.trim() === '*')) return reply.code(304).send();
    const ifRange = request.headers['if-range'];
    const rangeHeader = ifRange && ifRange !== stored.etag ? undefined : request.headers.range;
    const range = parseRange(rangeHeader, stored.size);
    if (range === 'unsatisfiable') {
      throw new ApiError('range_not_satisfiable', `the range is outside the file (${stored.size} bytes)`, undefined, {
        'Content-Range': `bytes */${stored.size}`,
      });
    }
    if (!range) {
      reply.header('Content-Length', String(stored.size));
      return reply.code(200).send(ctx.storage.read(job.id, file));
    }
    reply.header('Content-Range', `bytes ${range.start}-${range.end}/${stored.size}`);
    reply.header('Content-Length', String(range.end - range.start + 1));
    return reply.code(206).send(ctx.storage.read(job.id, file, range));
  };

  // SRT: the cues of the stored WebVTT file, written as SubRip (so both always agree, and a job
  // rendered before SRT existed has one too). Small: no byte ranges.
  app.get<{ Params: { id: string } }>('/api/jobs/:id/captions.srt', async (request, reply) => {
    const job = await ctx.store.get(request.params.id, userOf(request));
    if (!job) throw notFound();
    if (job.status !== 'completed') throw new ApiError('not_ready', `the job is ${job.status}; its files exist once it is completed`);
    const stored = await ctx.storage.stat(job.id, 'captions');
    if (!stored) throw new ApiError('not_found', 'the file of this job is gone');
    const etag = `"srt-${stored.etag.replace(/^W\/|"/g, '')}"`;
    reply.header('ETag', etag).header('Cache-Control', 'private, max-age=31536000, immutable').type(SRT_TYPE);
    const inm = request.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) return reply.code(304).send();
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.storage.read(job.id, 'captions')) chunks.push(chunk as Buffer);
    return reply.code(200).send(writeSrt(readVttCues(Buffer.concat(chunks).toString('utf8'))));
  });
  app.get<{ Params: { id: string } }>('/api/jobs/:id/video', (req, reply) => serve(req, reply, 'video'));
  app.get<{ Params: { id: string } }>('/api/jobs/:id/captions.vtt', (req, reply) => serve(req, reply, 'captions'));
  app.get<{ Params: { id: string } }>('/api/jobs/:id/thumbnail.jpg', (req, reply) => serve(req, reply, 'thumbnail'));
}
