// A render is refused at submit when a voice it speaks in needs a pack that is not on its way:
// `missing` (nobody started the download) or `failed`. Rendering would only fail later with a
// download error; a pack already `downloading` is waited for by the render.
import type { ErrorDetail, Voice, VoicePackStatus } from '../../shared/contract/index.js';
import type { RenderEngine } from '../engine/types.js';
import { voicePackFailure } from '../voice-pack-errors.js';

/** A voice a request uses, and the field that chose it (`voiceId`, `scenes[2].voiceId`). */
export interface VoiceUse {
  path: string;
  voice: Voice;
}

export async function checkVoicePacks(
  engine: RenderEngine | null,
  uses: VoiceUse[],
  details: ErrorDetail[],
  log: { warn(obj: object, msg: string): void },
): Promise<void> {
  if (!engine?.voicePack) return; // no engine to render with: the job fails as engine_unavailable
  const states = new Map<string, Promise<VoicePackStatus>>();
  for (const { path, voice } of uses) {
    if (voice.downloadBytes === undefined) continue; // ships with the studio
    let pack: VoicePackStatus;
    try {
      let state = states.get(voice.id);
      if (!state) states.set(voice.id, (state = engine.voicePack(voice.id)));
      pack = await state;
    } catch (err) {
      // The engine cannot tell (its cache folder unreadable…): accepted, the render reports what it finds.
      log.warn({ err, voiceId: voice.id }, 'voice pack state unknown at submit');
      continue;
    }
    if (pack.state === 'missing') {
      details.push({ path, message: `the voice "${voice.name}" must be downloaded first: POST /api/voices/${voice.id}/pack starts it` });
    } else if (pack.state === 'failed') {
      const why = pack.error ? voicePackFailure(pack.error) : 'the download failed';
      details.push({ path, message: `the voice "${voice.name}" is not downloaded (${why.replace(/\.$/, '')}); POST /api/voices/${voice.id}/pack tries again` });
    }
  }
}
