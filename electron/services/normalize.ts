// Reads render-API answers. Our own API answers in the contract's shapes (fast path); a foreign
// render API may send a bare array or { jobs | data | items }, `id | jobId | _id`, status words
// in other cases, snake_case fields. Anything unreadable is a clear error naming the field.
import {
  Job,
  JobList,
  JOB_STATUSES,
  zeroCounts,
  type JobStatus,
  type RenderParams,
  type StatusCounts,
  AspectRatio,
  ErrorBody,
} from '../../shared/contract/index.js';
import { fillParams } from '../../shared/scene/catalog.js';
import { BridgeFailure } from './errors.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function unreadable(path: string, message: string): BridgeFailure {
  return new BridgeFailure('unreadable_response', `the render API answered something the app cannot read: ${path}: ${message}`, [{ path, message }]);
}

const STATUS_WORDS: Record<string, JobStatus> = {
  queued: 'queued', queue: 'queued', pending: 'queued', waiting: 'queued', submitted: 'queued', created: 'queued', new: 'queued', accepted: 'queued', scheduled: 'queued',
  rendering: 'rendering', render: 'rendering', processing: 'rendering', running: 'rendering', inprogress: 'rendering', started: 'rendering', working: 'rendering', active: 'rendering',
  completed: 'completed', complete: 'completed', done: 'completed', succeeded: 'completed', success: 'completed', successful: 'completed', finished: 'completed', ready: 'completed',
  failed: 'failed', fail: 'failed', failure: 'failed', error: 'failed', errored: 'failed',
  canceled: 'canceled', cancelled: 'canceled', aborted: 'canceled', stopped: 'canceled',
};

export function normalizeStatus(raw: unknown, path: string): JobStatus {
  if (typeof raw !== 'string') throw unreadable(path, raw === undefined ? 'is missing' : 'must be a string');
  const word = raw.toLowerCase().replace(/[\s_-]+/g, '');
  const s = STATUS_WORDS[word];
  if (!s) throw unreadable(path, `unknown status "${raw}" (understood: ${JOB_STATUSES.join(', ')} and common synonyms)`);
  return s;
}

const pick = (o: Obj, ...names: string[]): unknown => {
  for (const n of names) if (o[n] !== undefined && o[n] !== null) return o[n];
  return undefined;
};

function str(o: Obj, path: string, names: string[], fallback?: string): string {
  const v = pick(o, ...names);
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (v === undefined && fallback !== undefined) return fallback;
  throw unreadable(`${path}.${names[0]}`, v === undefined ? 'is missing' : 'must be a string');
}

function time(o: Obj, names: string[]): string | null {
  const v = pick(o, ...names);
  if (typeof v === 'number' && Number.isFinite(v)) return new Date(v < 1e12 ? v * 1000 : v).toISOString();
  if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return new Date(v).toISOString();
  return null;
}

/** A foreign job's parameters; what it leaves out (or sends unreadable) comes from its template's defaults. */
function params(o: Obj, templateId: string): RenderParams {
  const p = pick(o, 'params', 'parameters', 'options');
  if (!isObj(p)) return fillParams(templateId, undefined);
  const aspect = AspectRatio.safeParse(pick(p, 'aspectRatio', 'aspect_ratio', 'aspect'));
  const av = isObj(p.avatar) ? p.avatar : {};
  const num = (k: 'scale' | 'x' | 'y') => (typeof av[k] === 'number' && Number.isFinite(av[k]) ? av[k] : undefined);
  return fillParams(templateId, { aspectRatio: aspect.data, avatar: { scale: num('scale'), x: num('x'), y: num('y') } });
}

/** One job in any shape we understand → a contract Job. */
export function normalizeJob(raw: unknown, path = 'job'): Job {
  const fast = Job.safeParse(raw);
  if (fast.success) return fast.data;
  if (!isObj(raw)) throw unreadable(path, 'must be an object');
  const id = str(raw, path, ['id', 'jobId', '_id', 'job_id', 'uuid']);
  const status = normalizeStatus(pick(raw, 'status', 'state'), `${path}.status`);
  let progress = pick(raw, 'progress', 'percent', 'percentage');
  if (typeof progress !== 'number' || !Number.isFinite(progress)) progress = status === 'completed' ? 1 : 0;
  let pr = progress as number;
  if (pr > 1) pr = pr / 100;
  pr = Math.min(1, Math.max(0, pr));
  const createdAt = time(raw, ['createdAt', 'created_at', 'created', 'submittedAt', 'submitted_at']) ?? new Date(0).toISOString();
  const updatedAt = time(raw, ['updatedAt', 'updated_at', 'modified_at', 'modifiedAt']) ?? createdAt;
  const out = pick(raw, 'output', 'result');
  const videoUrl = pick(raw, 'videoUrl', 'video_url', 'url', 'output_url', 'result_url') ?? (isObj(out) ? pick(out, 'videoUrl', 'video_url', 'url') : undefined);
  const err = pick(raw, 'error', 'error_message', 'errorMessage', 'failure_reason');
  const templateId = str(raw, path, ['templateId', 'template_id', 'template'], '');
  const job: Job = {
    id,
    status,
    text: str(raw, path, ['text', 'script', 'prompt', 'input'], ''),
    templateId,
    voiceId: str(raw, path, ['voiceId', 'voice_id', 'voice'], ''),
    params: params(raw, templateId),
    progress: pr,
    warnings: [],
    createdAt,
    updatedAt,
    startedAt: time(raw, ['startedAt', 'started_at']),
    finishedAt: time(raw, ['finishedAt', 'finished_at', 'completedAt', 'completed_at']),
    output:
      status === 'completed' && typeof videoUrl === 'string'
        ? {
            videoUrl,
            captionsUrl: String((isObj(out) && pick(out, 'captionsUrl', 'captions_url')) || pick(raw, 'captionsUrl', 'captions_url') || ''),
            thumbnailUrl: String((isObj(out) && pick(out, 'thumbnailUrl', 'thumbnail_url')) || pick(raw, 'thumbnailUrl', 'thumbnail_url') || ''),
            durationSeconds: Number((isObj(out) && pick(out, 'durationSeconds', 'duration')) || pick(raw, 'durationSeconds', 'duration') || 0),
            width: Number((isObj(out) && out.width) || 0),
            height: Number((isObj(out) && out.height) || 0),
            sizeBytes: Number((isObj(out) && pick(out, 'sizeBytes', 'size')) || 0),
          }
        : null,
    error:
      status === 'failed'
        ? isObj(err)
          ? { code: String(err.code ?? 'failed'), message: String(err.message ?? 'the render failed') }
          : { code: 'failed', message: typeof err === 'string' ? err : 'the render failed' }
        : null,
  };
  return job;
}

export function countStatuses(jobs: Job[]): StatusCounts {
  const c = zeroCounts();
  for (const j of jobs) c[j.status]++;
  return c;
}

/** A job list in any shape we understand → the contract's JobList. */
export function normalizeJobList(raw: unknown): JobList {
  const fast = JobList.safeParse(raw);
  if (fast.success) return fast.data;
  let items: unknown;
  let field = '(body)';
  if (Array.isArray(raw)) items = raw;
  else if (isObj(raw)) {
    for (const k of ['jobs', 'data', 'items', 'results']) {
      if (Array.isArray(raw[k])) {
        items = raw[k];
        field = k;
        break;
      }
    }
  }
  if (!Array.isArray(items)) throw unreadable('(body)', 'expected an array of jobs or an object with a jobs, data or items array');
  const jobs = items.map((j, i) => normalizeJob(j, field === '(body)' ? `[${i}]` : `${field}[${i}]`));
  const o = isObj(raw) ? raw : {};
  const next = pick(o, 'nextCursor', 'next_cursor', 'cursor', 'next');
  const counts = JobList.shape.counts.safeParse(o.counts);
  return { jobs, nextCursor: typeof next === 'string' && next ? next : null, counts: counts.success ? counts.data : countStatuses(jobs) };
}

/** The error body of our contract, or a best-effort message from a foreign one. */
export function readErrorBody(raw: unknown): { code: string | null; message: string | null; details?: { path: string; message: string }[] } {
  const parsed = ErrorBody.safeParse(raw);
  if (parsed.success) return { code: parsed.data.error.code, message: parsed.data.error.message, details: parsed.data.error.details };
  if (isObj(raw)) {
    const e = raw.error;
    if (isObj(e)) return { code: typeof e.code === 'string' ? e.code : null, message: typeof e.message === 'string' ? e.message : null };
    const m = pick(raw, 'message', 'detail', 'error');
    if (typeof m === 'string') return { code: null, message: m };
  }
  return { code: null, message: null };
}
