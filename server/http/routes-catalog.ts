// Catalogs: templates and voices from resources/, template thumbnails and voice samples from
// the engine (which keeps them on disk, versioned with its art and sound; 503 while no engine is
// available).
import type { FastifyInstance } from 'fastify';
import { AspectRatio, SOUND_LIMITS } from '../../shared/contract/index.js';
import type { TemplateList, VoiceList, VoicePackStatus } from '../../shared/contract/index.js';
import type { ServerContext } from './context.js';
import { voicePackFailure } from '../voice-pack-errors.js';
import { ApiError } from './errors.js';

export function catalogRoutes(app: FastifyInstance, ctx: ServerContext): void {
  /**
   * An engine-made file: the engine keeps it on disk (named anew when its drawing or sound
   * changes; a second copy here kept stale ones) and shares one making among concurrent requests.
   */
  const fromEngine = (file: string, make: () => Promise<Buffer>): Promise<Buffer> =>
    make().catch((err: unknown) => {
      app.log.warn({ err, file }, 'engine could not make a catalog file');
      throw new ApiError('unavailable', 'the render engine could not make this file right now');
    });

  const engineOrFail = () => {
    if (!ctx.engine) throw new ApiError('unavailable', 'no render engine is available on this server yet');
    return ctx.engine;
  };

  app.get('/api/templates', async (): Promise<TemplateList> => ({ templates: ctx.catalog.templates }));
  app.get('/api/voices', async (): Promise<VoiceList> => ({ voices: ctx.catalog.voices }));

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>(
    '/api/templates/:id/thumbnail.jpg',
    async (request, reply) => {
      const template = ctx.catalog.template(request.params.id);
      if (!template) throw new ApiError('not_found', 'no such template');
      const raw = request.query?.aspectRatio;
      const ar = raw === undefined ? template.defaults.aspectRatio : AspectRatio.safeParse(raw).data;
      if (!ar || !template.aspectRatios.includes(ar)) {
        throw new ApiError('validation_failed', 'unsupported aspect ratio', [
          { path: 'aspectRatio', message: `one of ${template.aspectRatios.join(', ')}` },
        ]);
      }
      const engine = engineOrFail();
      const bytes = await fromEngine(`templates/${template.id}-${ar.replace(':', 'x')}.jpg`, () =>
        engine.templateThumbnail(template.id, ar),
      );
      return reply.type('image/jpeg').header('Cache-Control', 'private, max-age=3600').send(bytes);
    },
  );

  app.get<{ Params: { id: string }; Querystring: Record<string, unknown> }>('/api/voices/:id/sample', async (request, reply) => {
    const voice = ctx.catalog.voice(request.params.id);
    if (!voice) throw new ApiError('not_found', 'no such voice');
    // Extension `sound`: `?say=` hears a word of a pronunciation lexicon as this voice says it.
    const say = request.query?.say;
    if (say !== undefined) {
      const text = typeof say === 'string' ? say.trim() : '';
      if (!text || text.length > SOUND_LIMITS.lexiconSayMaxChars || !/[\p{L}\p{N}]/u.test(text)) {
        throw new ApiError('validation_failed', 'the text to say is invalid', [{ path: 'say', message: `must be 1–${SOUND_LIMITS.lexiconSayMaxChars} characters with a letter or digit` }]);
      }
    }
    const engine = engineOrFail();
    // A neural voice speaks its own sample: never a download of tens of MB behind a GET.
    if (voice.downloadBytes !== undefined && (await engine.voicePack?.(voice.id))?.state !== 'installed') {
      throw new ApiError('not_ready', `${voice.name} is not downloaded yet: download the voice to hear its sample.`);
    }
    if (typeof say === 'string') {
      const bytes = await fromEngine(`voices/${voice.id} saying a word`, () => engine.voiceSample(voice.id, say.trim()));
      return reply.type('audio/wav').header('Cache-Control', 'no-store').send(bytes);
    }
    const bytes = await fromEngine(`voices/${voice.id}.wav`, () => engine.voiceSample(voice.id));
    return reply.type('audio/wav').header('Cache-Control', 'private, max-age=3600').send(bytes);
  });

  // Neural voice packs: GET reports the download state, POST starts the download (idempotent).
  const pack = async (id: string, install: boolean): Promise<VoicePackStatus> => {
    const voice = ctx.catalog.voice(id);
    if (!voice) throw new ApiError('not_found', 'no such voice');
    if (voice.downloadBytes === undefined) return { state: 'builtin' };
    const engine = engineOrFail();
    const answer = install ? engine.installVoicePack : engine.voicePack;
    if (!answer) throw new ApiError('unavailable', 'this render engine cannot install voice packs');
    const status = await answer.call(engine, voice.id);
    return status.error === undefined ? status : { ...status, error: voicePackFailure(status.error) };
  };
  app.get<{ Params: { id: string } }>('/api/voices/:id/pack', (request) => pack(request.params.id, false));
  app.post<{ Params: { id: string } }>('/api/voices/:id/pack', (request) => pack(request.params.id, true));
}
