// The video's music (extension `sound`): none, one of the tracks the app ships (imported into
// the media library on first use) or a sound from the media library; its volume, and whether it
// ducks under the voice. Hidden when the render API cannot mix music.
import { useEffect, useRef, useState } from 'react';
import { excerptOf, newDocumentMusic } from '../../shared/contract/document.js';
import { SOUND_PREVIEW_MAX_CHARS, type Asset, type MusicTrack } from '../../shared/contract/index.js';
import { useSelectedSceneId } from '../store/scene-actions.js';
import { call, describeError } from '../lib/bridge.js';
import { ErrorNote } from './ErrorNote.js';
import { useSettings, useStudio } from '../store/index.js';

const TRACK = 'track:';
const ASSET = 'asset:';

export function MusicPicker() {
  const music = useStudio((s) => s.document.music);
  const setMusic = useStudio((s) => s.setMusic);
  const sound = useSettings((s) => s.capabilities?.sound);
  const [tracks, setTracks] = useState<MusicTrack[]>([]);
  const [sounds, setSounds] = useState<Asset[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
  const voiceId = useStudio((s) => s.document.voiceId);
  const scenes = useStudio((s) => s.document.scenes);
  const sceneId = useSelectedSceneId();
  const sceneIndex = Math.max(0, scenes.findIndex((sc) => sc.id === sceneId));
  const sceneText = scenes[sceneIndex]?.text.trim() ?? '';
  const [mixing, setMixing] = useState(false);
  const blobUrl = useRef<string | null>(null);
  useEffect(() => () => {
    if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
  }, []);

  useEffect(() => {
    if (sound === false) return;
    let live = true;
    void call('music.tracks', undefined).then(
      (r) => live && setTracks(r.tracks),
      (e: unknown) => live && setError(`The built-in tracks could not be listed: ${describeError(e)}`),
    );
    void call('assets.list', { kind: 'audio', limit: 100 }).then(
      (r) => live && setSounds(r.assets),
      // Without the media library the built-in tracks cannot be used either; the library says why.
      (e: unknown) => live && setError(`Your sounds could not be listed: ${describeError(e)}`),
    );
    return () => {
      live = false;
    };
  }, [sound]);

  if (sound === false) return null;
  const trackNames = new Set(tracks.map((t) => `${t.name}.mp3`));
  const chosen = music ? sounds.find((a) => a.id === music.assetId) : undefined;
  const label = music ? music.name || chosen?.name || 'A sound from your media library' : null;
  const value = music ? `${ASSET}${music.assetId}` : '';

  const choose = async (v: string) => {
    setError(null);
    audio.current?.pause();
    setPlaying(false);
    if (!v) return setMusic(null);
    const keep = music ? { volume: music.volume, duck: music.duck } : {};
    if (v.startsWith(ASSET)) {
      const asset = sounds.find((a) => a.id === v.slice(ASSET.length));
      if (asset) setMusic({ ...newDocumentMusic(asset.id, asset.name), ...keep });
      return;
    }
    const track = tracks.find((t) => t.id === v.slice(TRACK.length));
    if (!track) return;
    setBusy(track.name);
    try {
      const asset = await call('music.importTrack', { trackId: track.id });
      setSounds((s) => (s.some((a) => a.id === asset.id) ? s : [asset, ...s]));
      setMusic({ ...newDocumentMusic(asset.id, track.name), ...keep });
    } catch (e) {
      setError(`“${track.name}” could not be added to your media library: ${describeError(e)}`);
    } finally {
      setBusy(null);
    }
  };

  const listen = async () => {
    const el = audio.current;
    if (!el || !music) return;
    if (playing) {
      el.pause();
      setPlaying(false);
      return;
    }
    try {
      const { url } = await call('media.assetUrl', { assetId: music.assetId, kind: 'content' });
      el.src = url;
      el.volume = music.volume;
      setPlaying(true);
      await el.play();
    } catch (e) {
      setPlaying(false);
      setError(`The music could not be played: ${e instanceof DOMException ? e.message : describeError(e)}`);
    }
  };

  /** The selected scene's narration with the music under it, mixed by the render API as the video will be. */
  const hearScene = async () => {
    const el = audio.current;
    if (!el || !music || !voiceId || !sceneText) return;
    setError(null);
    setMixing(true);
    try {
      const r = await call('music.preview', {
        text: excerptOf(sceneText, SOUND_PREVIEW_MAX_CHARS, ''), voiceId, music: { assetId: music.assetId, volume: music.volume, duck: music.duck },
      });
      if (blobUrl.current) URL.revokeObjectURL(blobUrl.current);
      blobUrl.current = URL.createObjectURL(new Blob([Uint8Array.from(atob(r.audio), (c) => c.charCodeAt(0))], { type: r.mediaType }));
      el.src = blobUrl.current;
      el.volume = 1;
      setPlaying(true);
      await el.play();
    } catch (e) {
      setPlaying(false);
      setError(`The scene could not be mixed: ${e instanceof DOMException ? e.message : describeError(e)}`);
    } finally {
      setMixing(false);
    }
  };

  // A track already in the library is offered once, as a track.
  const ownSounds = sounds.filter((a) => !trackNames.has(a.name) || a.id === music?.assetId);
  return (
    <section className="panel" aria-labelledby="music-heading" data-testid="music-picker">
      <div className="panel-head">
        <h2 id="music-heading">Music</h2>
        {label && <span className="muted small" data-testid="selected-music">{label}</span>}
      </div>
      <div className="music-choice">
        <select className="input" aria-label="Music" value={busy ? '' : value} disabled={busy !== null} onChange={(e) => void choose(e.target.value)}>
          <option value="">{busy ? `Adding “${busy}”…` : 'No music'}</option>
          {music && !ownSounds.some((a) => a.id === music.assetId) && <option value={value}>{label}</option>}
          {tracks.length > 0 && (
            <optgroup label="Made for Presenter Studio">
              {tracks.map((t) => {
                const inLibrary = sounds.find((a) => a.name === `${t.name}.mp3`);
                return (
                  <option key={t.id} value={inLibrary ? `${ASSET}${inLibrary.id}` : `${TRACK}${t.id}`}>
                    {t.name} ({Math.round(t.durationSeconds)} s, loops)
                  </option>
                );
              })}
            </optgroup>
          )}
          {ownSounds.filter((a) => !trackNames.has(a.name)).length > 0 && (
            <optgroup label="Your sounds">
              {ownSounds.filter((a) => !trackNames.has(a.name)).map((a) => (
                <option key={a.id} value={`${ASSET}${a.id}`}>
                  {a.name}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        {music && (
          <button type="button" className="btn" onClick={() => void listen()} aria-pressed={playing}>
            {playing ? 'Stop' : 'Listen'}
          </button>
        )}
      </div>
      {music && (
        <div className="music-settings">
          <label className="field-inline">
            <span>Volume</span>
            <input
              type="range" min={0} max={100} step={5} aria-label="Music volume" value={Math.round(music.volume * 100)}
              onChange={(e) => setMusic({ ...music, volume: Number(e.target.value) / 100 })}
            />
            <span className="muted small" data-testid="music-volume">{Math.round(music.volume * 100)} %</span>
          </label>
          <label className="field-inline">
            <input type="checkbox" checked={music.duck} onChange={(e) => setMusic({ ...music, duck: e.target.checked })} />
            <span>Quieter under the voice</span>
          </label>
          <button type="button" className="btn small" data-testid="hear-scene-mix" disabled={mixing || !voiceId || !sceneText} onClick={() => void hearScene()}>
            {mixing ? 'Mixing…' : `Hear scene ${sceneIndex + 1} with the music`}
          </button>
        </div>
      )}
      <p className="muted small">The music loops or fades out to the video’s length, and every video starts and ends with a moment of music.</p>
      {error && <ErrorNote message={error} />}
      <audio ref={audio} onEnded={() => setPlaying(false)} hidden />
    </section>
  );
}
