// A short preview of a scene's sound: its narration with the music under it, mixed exactly as
// a video's (lead-in, ducking, tail, loudness), as MP3 for the app to play.
import { VIDEO_EDGES } from '../../../shared/contract/index.js';
import { spokenScript } from '../../../shared/scene/index.js';
import { runFfmpeg } from '../encode/ffmpeg.js';
import { Narration } from '../speech/narration.js';
import { SPEECH_SAMPLE_RATE } from '../speech/speech.js';
import type { SpeechEngines } from '../speech/speech-engines.js';
import type { RenderMusic } from '../types.js';
import { MusicMix } from './music-mix.js';
import { MIX_SAMPLE_RATE } from './music-source.js';

export async function mixPreview(speech: SpeechEngines, text: string, voiceId: string, music: RenderMusic, signal: AbortSignal, musicCache: string | null = null): Promise<Buffer> {
  const voice = speech.voice(voiceId);
  await speech.prepare(voice, signal);
  const mix = MusicMix.of(music, signal, musicCache);
  try {
    const narration = new Narration(speech, spokenScript(text), voice, signal);
    await mix.prepare();
    mix.push(Math.round(VIDEO_EDGES.leadInSeconds * SPEECH_SAMPLE_RATE));
    for (let chunk = await narration.next(); chunk; chunk = await narration.next()) mix.push(chunk.audio());
    mix.push(Math.round(VIDEO_EDGES.tailSeconds * SPEECH_SAMPLE_RATE));
    const [pcm = new Int16Array(0)] = await mix.mix(true);
    const run = runFfmpeg(['-f', 's16le', '-ar', String(MIX_SAMPLE_RATE), '-ac', '2', '-i', 'pipe:0', '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3', 'pipe:1'], signal, 'encoding the preview', 0, true);
    const parts: Buffer[] = [];
    run.stdout!.on('data', (b: Buffer) => parts.push(b));
    run.proc.stdin!.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    await run.done;
    return Buffer.concat(parts);
  } finally {
    mix.close();
  }
}
