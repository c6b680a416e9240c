// Extension `sound`: POST /api/sound/preview — a scene's narration with the music under it,
// mixed as the video will have it, for the app to play before rendering (MP3).
import type { FastifyInstance } from 'fastify';
import { issuesToDetails, SoundPreviewRequest, type ErrorDetail } from '../../shared/contract/index.js';
import { resolveMusicMedia } from '../assets/scene-media.js';
import { EngineError } from '../engine/types.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { userOf } from './principal.js';
import { resolveMusic } from './render-music.js';

export function soundRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/api/sound/preview', async (request, reply) => {
    const userId = userOf(request);
    const parsed = SoundPreviewRequest.safeParse(request.body, { reportInput: true });
    const invalid = (details: ErrorDetail[]) => new ApiError('validation_failed', `the preview request is invalid: ${details.map((d) => d.path).join(', ')}`, details);
    if (!parsed.success) throw invalid(issuesToDetails(parsed.error));
    const details: ErrorDetail[] = [];
    const voice = ctx.catalog.voice(parsed.data.voiceId);
    if (!voice) details.push({ path: 'voiceId', message: `unknown voice "${parsed.data.voiceId}"; see GET /api/voices` });
    const music = await resolveMusic(parsed.data.music, { assets: ctx.assets.store, userId }, details);
    if (details.length || !voice || !music) throw invalid(details);
    const engine = ctx.engine;
    if (!engine?.soundPreview) throw new ApiError('unavailable', 'this render engine cannot preview sound');
    if (voice.downloadBytes !== undefined && (await engine.voicePack?.(voice.id))?.state !== 'installed') {
      throw new ApiError('not_ready', `${voice.name} is not downloaded yet: download the voice to hear it.`);
    }
    const media = await resolveMusicMedia(music, userId, ctx.assets);
    const stop = new AbortController();
    // The caller went away before the answer: the preview's speech and decoder stop.
    reply.raw.once('close', () => reply.raw.writableEnded || stop.abort());
    try {
      const bytes = await engine.soundPreview({ text: parsed.data.text.trim(), voiceId: voice.id, music: media }, stop.signal);
      return reply.type('audio/mpeg').header('Cache-Control', 'no-store').send(bytes);
    } catch (e) {
      // The engine's own words (a track that does not decode) reach the caller; anything else is a fault.
      if (e instanceof EngineError && e.code === 'invalid_input') throw new ApiError('validation_failed', e.message, [{ path: 'music.assetId', message: e.message }]);
      throw e;
    }
  });
}
