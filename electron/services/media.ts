// App-local media URLs. The renderer never sees a URL that needs the key: job outputs, template
// and presenter thumbnails, voice samples and the creator's assets are addressed as `<mediaBase>/<profileId>/<kind>/<id>/<file>`
// (`studio-media://app` in Electron, `/media` in the web shell) and streamed by the privileged
// side, which adds the key and passes byte ranges through.
import { PHOTO_PRESENTER_ID_PATTERN, type Asset, type Job, type Presenter, type Template, type Voice } from '../../shared/contract/index.js';
import type { MediaKind } from '../../shared/bridge/index.js';
import type { RenderApiClient } from './api-client.js';
import { BridgeFailure, toBridgeError } from './errors.js';

const JOB_FILES: Record<MediaKind, string> = { video: 'video', captions: 'captions.vtt', srt: 'captions.srt', thumbnail: 'thumbnail.jpg' };
export type AssetFile = 'content' | 'thumbnail';
const ASSET_FILES: Record<AssetFile, string> = { content: 'content', thumbnail: 'thumbnail.jpg' };

/** The `?v=` part of an API's thumbnail URL, or ''. */
function versionOf(url: string): string {
  const v = /[?&]v=([A-Za-z0-9_-]{1,32})(?:&|$)/.exec(url);
  return v ? `?v=${v[1]}` : '';
}

export class MediaUrls {
  constructor(readonly base: string) {}
  job(profileId: string, jobId: string, kind: MediaKind): string {
    return `${this.base}/${encodeURIComponent(profileId)}/jobs/${encodeURIComponent(jobId)}/${kind}`;
  }
  voice(profileId: string, voiceId: string): string {
    return `${this.base}/${encodeURIComponent(profileId)}/voices/${encodeURIComponent(voiceId)}/sample`;
  }
  template(profileId: string, templateId: string): string {
    return `${this.base}/${encodeURIComponent(profileId)}/templates/${encodeURIComponent(templateId)}/thumbnail`;
  }
  presenter(profileId: string, presenterId: string): string {
    return `${this.base}/${encodeURIComponent(profileId)}/presenters/${encodeURIComponent(presenterId)}/thumbnail`;
  }
  asset(profileId: string, assetId: string, file: AssetFile): string {
    return `${this.base}/${encodeURIComponent(profileId)}/assets/${encodeURIComponent(assetId)}/${file}`;
  }
  /** The asset as the renderer sees it: its bytes and thumbnail through the app. */
  rewriteAsset(profileId: string, a: Asset): Asset {
    return { ...a, contentUrl: this.asset(profileId, a.id, 'content'), thumbnailUrl: a.thumbnailUrl ? this.asset(profileId, a.id, 'thumbnail') : '' };
  }
  /** The job as the renderer sees it: output URLs point at the app, not at the API. */
  rewriteJob(profileId: string, job: Job): Job {
    if (!job.output) return job;
    return {
      ...job,
      output: {
        ...job.output,
        videoUrl: this.job(profileId, job.id, 'video'),
        captionsUrl: job.output.captionsUrl ? this.job(profileId, job.id, 'captions') : '',
        // The API's version query (a thumbnail made again) stays, so a new still is a new URL.
        thumbnailUrl: job.output.thumbnailUrl ? `${this.job(profileId, job.id, 'thumbnail')}${versionOf(job.output.thumbnailUrl)}` : '',
      },
    };
  }
  rewriteTemplate(profileId: string, t: Template): Template {
    return { ...t, thumbnailUrl: t.thumbnailUrl ? this.template(profileId, t.id) : '' };
  }
  rewritePresenter(profileId: string, p: Presenter): Presenter {
    return { ...p, thumbnailUrl: p.thumbnailUrl ? this.presenter(profileId, p.id) : '' };
  }
  rewriteVoice(profileId: string, v: Voice): Voice {
    return { ...v, sampleUrl: v.sampleUrl ? this.voice(profileId, v.id) : '' };
  }
}

export type MediaTarget =
  | { profileId: string; kind: 'job'; id: string; file: MediaKind }
  | { profileId: string; kind: 'voice'; id: string }
  | { profileId: string; kind: 'template'; id: string }
  | { profileId: string; kind: 'presenter'; id: string }
  | { profileId: string; kind: 'asset'; id: string; file: AssetFile };

/** Parses the part of a media URL after the base (`<profileId>/jobs/<id>/video`). */
export function parseMediaPath(path: string): MediaTarget | null {
  const parts = path.replace(/^\/+/, '').split('?')[0]!.split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return '';
    }
  });
  // A segment is one name: no separators or dot segments once decoded (`..%2F` stays outside).
  if (parts.length !== 4 || parts.some((p) => !p || p.length > 128 || p === '.' || p === '..' || /[/\\]/.test(p))) return null;
  const [profileId, kind, id, file] = parts as [string, string, string, string];
  if (kind === 'jobs' && (file === 'video' || file === 'captions' || file === 'srt' || file === 'thumbnail')) return { profileId, kind: 'job', id, file };
  if (kind === 'voices' && file === 'sample') return { profileId, kind: 'voice', id };
  if (kind === 'templates' && file === 'thumbnail') return { profileId, kind: 'template', id };
  if (kind === 'presenters' && file === 'thumbnail') return { profileId, kind: 'presenter', id };
  if (kind === 'assets' && (file === 'content' || file === 'thumbnail')) return { profileId, kind: 'asset', id, file };
  return null;
}

export function defaultUpstreamPath(t: MediaTarget): string {
  if (t.kind === 'job') return `/api/jobs/${encodeURIComponent(t.id)}/${JOB_FILES[t.file]}`;
  if (t.kind === 'voice') return `/api/voices/${encodeURIComponent(t.id)}/sample`;
  if (t.kind === 'asset') return `/api/assets/${encodeURIComponent(t.id)}/${ASSET_FILES[t.file]}`;
  // The contract's paths: a photo presenter's face is a JPEG, a built-in's figure a PNG.
  if (t.kind === 'presenter') return `/api/presenters/${encodeURIComponent(t.id)}/thumbnail.${PHOTO_PRESENTER_ID_PATTERN.test(t.id) ? 'jpg' : 'png'}`;
  return `/api/templates/${encodeURIComponent(t.id)}/thumbnail.jpg`;
}

const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'];

function errorResponse(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ code, message }), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/**
 * Streams one media file from the render API with the key, passing Range / If-None-Match
 * through. Always answers (a Response with `{ code, message }` on failure), never throws.
 */
export async function streamMedia(client: RenderApiClient, upstream: string, reqHeaders: { range?: string | null; ifNoneMatch?: string | null }, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { accept: '*/*' };
  if (reqHeaders.range) headers.range = reqHeaders.range;
  if (reqHeaders.ifNoneMatch) headers['if-none-match'] = reqHeaders.ifNoneMatch;
  // Foreign output URLs on another host get no key: the key goes to its own API only.
  const sameOrigin = !/^https?:\/\//.test(upstream) || new URL(upstream).origin === new URL(client.conn.baseUrl).origin;
  try {
    const res = await client.fetch('GET', upstream, { headers, signal, timeoutMs: 30_000, streaming: true }, sameOrigin);
    // nosniff: an uploaded file is shown as the type the API stored, never guessed from its bytes.
    const out = new Headers({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    for (const h of PASSED_HEADERS) {
      const v = res.headers.get(h);
      if (v) out.set(h, v);
    }
    return new Response(res.status === 304 ? null : res.body, { status: res.status, headers: out });
  } catch (e) {
    const err = e instanceof BridgeFailure ? e.toJSON() : toBridgeError(e);
    const status = err.code === 'not_found' || err.code === 'not_ready' ? 404 : err.code === 'range_not_satisfiable' ? 416 : err.code === 'offline' ? 503 : err.code === 'no_key' || err.code === 'unauthorized' ? 401 : 502;
    return errorResponse(status, err.code, err.message);
  }
}

export { errorResponse as mediaError };
