// Routes the app's media URLs (`<mediaBase>/<profileId>/<kind>/<id>/<file>`, see media.ts) to
// the render API's files: a job's output or an asset where the API said it is, a template or
// presenter thumbnail or voice sample where its catalog said, else the API's default path. Remembers those addresses from
// the jobs and catalogs it rewrites on their way to the renderer.
import type { Asset, Job, Presenter } from '../../shared/contract/index.js';
import type { RawCatalogs } from './catalogs.js';
import type { Connections } from './connections.js';
import { toBridgeError } from './errors.js';
import { MediaUrls, defaultUpstreamPath, mediaError, parseMediaPath, streamMedia, type MediaTarget } from './media.js';

/** Job outputs remembered; the oldest go first (a job not remembered falls back to the default path). */
const MAX_OUTPUTS = 5000;

export class MediaRouter {
  readonly urls: MediaUrls;
  private readonly outputs = new Map<string, Job['output']>();
  private readonly catalogs = new Map<string, RawCatalogs>();
  private readonly assets = new Map<string, Pick<Asset, 'contentUrl' | 'thumbnailUrl'>>();

  constructor(
    mediaBase: string,
    private readonly connections: Connections,
  ) {
    this.urls = new MediaUrls(mediaBase);
  }

  /** The job as the renderer sees it; its output's real addresses are kept for streaming. */
  job(profileId: string, job: Job): Job {
    if (job.output) {
      this.outputs.set(`${profileId}/${job.id}`, job.output);
      if (this.outputs.size > MAX_OUTPUTS) this.outputs.delete(this.outputs.keys().next().value!);
    }
    return this.urls.rewriteJob(profileId, job);
  }

  /** The asset as the renderer sees it; where the API keeps its bytes and thumbnail is kept for streaming. */
  asset(profileId: string, asset: Asset): Asset {
    this.assets.set(`${profileId}/${asset.id}`, { contentUrl: asset.contentUrl, thumbnailUrl: asset.thumbnailUrl });
    if (this.assets.size > MAX_OUTPUTS) this.assets.delete(this.assets.keys().next().value!);
    return this.urls.rewriteAsset(profileId, asset);
  }

  /** The catalogs as the renderer sees them; thumbnail and sample addresses are kept for streaming. */
  catalog(profileId: string, raw: RawCatalogs): Pick<RawCatalogs, 'templates' | 'voices' | 'presenters'> {
    this.catalogs.set(profileId, raw);
    return {
      templates: raw.templates.map((t) => this.urls.rewriteTemplate(profileId, t)),
      voices: raw.voices.map((v) => this.urls.rewriteVoice(profileId, v)),
      presenters: raw.presenters.map((p) => this.urls.rewritePresenter(profileId, p)),
    };
  }

  /** A presenter made since the catalog was read (presenters.create), as the renderer sees it. */
  presenter(profileId: string, p: Presenter): Presenter {
    const c = this.catalogs.get(profileId);
    if (c && !c.presenters.some((x) => x.id === p.id)) this.catalogs.set(profileId, { ...c, presenters: [...c.presenters, p] });
    return this.urls.rewritePresenter(profileId, p);
  }

  /** The API path or URL a media target is fetched from. */
  upstream(t: MediaTarget): string {
    if (t.kind === 'job') {
      const out = this.outputs.get(`${t.profileId}/${t.id}`);
      // SRT sits beside the WebVTT file (extension `sound`): no field of the job names it.
      const srt = out?.captionsUrl.endsWith('/captions.vtt') ? out.captionsUrl.replace(/captions\.vtt$/, 'captions.srt') : null;
      const u = out && (t.file === 'video' ? out.videoUrl : t.file === 'captions' ? out.captionsUrl : t.file === 'srt' ? srt : out.thumbnailUrl);
      if (u) return u;
    } else if (t.kind === 'asset') {
      const a = this.assets.get(`${t.profileId}/${t.id}`);
      const u = a && (t.file === 'content' ? a.contentUrl : a.thumbnailUrl);
      if (u) return u;
    } else {
      const c = this.catalogs.get(t.profileId);
      const u =
        t.kind === 'voice' ? c?.voices.find((v) => v.id === t.id)?.sampleUrl
        : t.kind === 'presenter' ? c?.presenters.find((p) => p.id === t.id)?.thumbnailUrl
        : c?.templates.find((x) => x.id === t.id)?.thumbnailUrl;
      if (u) return u;
    }
    return defaultUpstreamPath(t);
  }

  /** Streams `<mediaBase>/<rest>` with the profile's key; always answers, never throws. */
  async open(rest: string, headers: { range?: string | null; ifNoneMatch?: string | null }, signal?: AbortSignal): Promise<Response> {
    const t = parseMediaPath(rest);
    if (!t) return mediaError(404, 'not_found', 'no such media');
    try {
      const client = await this.connections.client(t.profileId);
      return await streamMedia(client, this.upstream(t), headers, signal);
    } catch (e) {
      const err = toBridgeError(e);
      return mediaError(err.code === 'not_found' ? 404 : 503, err.code, err.message);
    }
  }
}
