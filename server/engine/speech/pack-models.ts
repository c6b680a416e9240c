// The neural voices' models (Piper, Kokoro): each voice's pack is downloaded when missing and
// opened once; what a speaker reads from the pack besides the model is its own (`open`).
import { join } from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { loadOnnxRuntime } from './onnx-runtime.js';
import type { VoicePacks } from './voice-packs.js';
import type { EngineVoice } from './voices.js';

/** Seconds spent in the model and in the whole of a speaker's raw(), and audio seconds made. */
export interface SpeakerStats {
  modelSeconds: number;
  totalSeconds: number;
  audioSeconds: number;
}

export class PackModels<T extends { session: InferenceSession }> {
  private readonly loaded = new Map<string, Promise<T>>();

  constructor(
    private readonly packs: VoicePacks,
    /** Reads the pack's other files; `session()` opens its model.onnx. */
    private readonly open: (voice: EngineVoice, dir: string, session: () => Promise<InferenceSession>) => Promise<T>,
  ) {}

  get(voice: EngineVoice): Promise<T> {
    let p = this.loaded.get(voice.id);
    if (!p) {
      p = (async () => {
        const dir = await this.packs.ensure(voice);
        return this.open(voice, dir, async () => {
          const ort = await loadOnnxRuntime(this.packs.root);
          // One thread: the encoder needs the other core while the narration is spoken.
          return ort.InferenceSession.create(join(dir, 'model.onnx'), { intraOpNumThreads: 1, interOpNumThreads: 1 });
        });
      })();
      this.loaded.set(voice.id, p);
      p.catch(() => this.loaded.delete(voice.id)); // a failed download or load is tried again next time
    }
    return p;
  }

  /** onnxruntime's Tensor, loaded by then (a model was opened). */
  async tensor(): Promise<Awaited<ReturnType<typeof loadOnnxRuntime>>['Tensor']> {
    return (await loadOnnxRuntime(this.packs.root)).Tensor;
  }

  async close(): Promise<void> {
    const all = [...this.loaded.values()];
    this.loaded.clear();
    // A pack that failed to load was reported to the request that loaded it; only loaded ones are released.
    const settled = await Promise.allSettled(all);
    await Promise.all(settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value.session.release()] : [])));
  }
}
