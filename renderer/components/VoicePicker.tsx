// Voices: search (name, locale or either id form), locale and gender filters, a sample player.
import { useMemo, useRef, useState } from 'react';
import { call, describeError } from '../lib/bridge.js';
import { findVoice, useCatalogs, voiceIds, type CatalogVoice } from '../store/catalogs.js';
import { useEditor } from '../store/editor.js';
import { ErrorNote } from './ErrorNote.js';
import { Icon } from './Icon.js';
import { moveFocus, tabStop } from '../lib/roving.js';

const localeName = (() => {
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'language' }) : null;
  return (locale: string) => {
    try {
      return names?.of(locale) ?? locale;
    } catch {
      return locale;
    }
  };
})();

export function VoicePicker() {
  const voices = useCatalogs((s) => s.voices);
  const catalogError = useCatalogs((s) => s.error);
  const voiceId = useEditor((s) => s.draft.voiceId);
  const fieldError = useEditor((s) => s.fieldErrors.voiceId);
  const update = useEditor((s) => s.update);
  const [q, setQ] = useState('');
  const [locale, setLocale] = useState('');
  const [gender, setGender] = useState('');
  const [playing, setPlaying] = useState<string | null>(null);
  const [sampleError, setSampleError] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  // The sample buttons are one Tab stop; arrow keys move between them.
  const list = useRef<HTMLUListElement>(null);
  const [sampleFocus, setSampleFocus] = useState<string | null>(null);
  const selected = findVoice(voices, voiceId);

  const locales = useMemo(() => [...new Set(voices.map((v) => v.locale))].sort(), [voices]);
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return voices.filter(
      (v) =>
        (!locale || v.locale === locale) &&
        (!gender || v.gender === gender) &&
        (!needle || [v.name, v.locale, localeName(v.locale), ...voiceIds(v)].some((s) => s.toLowerCase().includes(needle))),
    );
  }, [voices, q, locale, gender]);
  const sampleStop = tabStop(
    shown.map((v) => v.id),
    sampleFocus,
    selected?.id ?? null,
  );

  const play = async (v: CatalogVoice) => {
    const el = audio.current;
    if (!el) return;
    if (playing === v.id) {
      el.pause();
      setPlaying(null);
      return;
    }
    setSampleError(null);
    try {
      const { url } = await call('voices.sampleUrl', { voiceId: v.id });
      el.src = url;
      setPlaying(v.id);
      await el.play();
    } catch (e) {
      setPlaying(null);
      setSampleError(`Could not play ${v.name}'s sample: ${e instanceof DOMException ? e.message : describeError(e)}`);
    }
  };

  return (
    <section className="panel" aria-labelledby="voice-heading">
      <div className="panel-head">
        <h2 id="voice-heading">Voice</h2>
        {selected && (
          <span className="muted small" data-testid="selected-voice">
            {selected.name} · {selected.locale}
          </span>
        )}
      </div>
      <div className="filters">
        <input type="search" className="input" placeholder="Search voices or ids" aria-label="Search voices" value={q} onChange={(e) => setQ(e.target.value)} />
        <select className="input" aria-label="Language" value={locale} onChange={(e) => setLocale(e.target.value)}>
          <option value="">All languages</option>
          {locales.map((l) => (
            <option key={l} value={l}>
              {localeName(l)} ({l})
            </option>
          ))}
        </select>
        <select className="input" aria-label="Gender" value={gender} onChange={(e) => setGender(e.target.value)}>
          <option value="">Any gender</option>
          <option value="female">Female</option>
          <option value="male">Male</option>
          <option value="neutral">Neutral</option>
        </select>
      </div>
      <ErrorNote message={catalogError && !voices.length ? `Voices could not be loaded: ${catalogError}` : null} onRetry={() => void useCatalogs.getState().load()} />
      <ErrorNote message={fieldError ? `Voice ${fieldError}.` : null} />
      <ErrorNote message={sampleError} />
      <ul className="voice-list" role="radiogroup" aria-labelledby="voice-heading" ref={list}>
        {shown.map((v) => {
          const checked = selected?.id === v.id;
          const alias = voiceIds(v).find((id) => id !== v.id);
          return (
            <li key={v.id} className={`voice-row${checked ? ' selected' : ''}`}>
              <label className="voice-choice">
                <input type="radio" name="voice" value={v.id} checked={checked} onChange={() => update({ voiceId: v.id })} />
                <span className="voice-name">{v.name}</span>
                <span className="muted small">
                  {localeName(v.locale)} · {v.gender}
                </span>
                <span className="voice-id muted small">
                  {v.id}
                  {alias ? ` · #${alias}` : ''}
                </span>
              </label>
              <button
                type="button"
                className="icon-btn"
                aria-label={playing === v.id ? `Stop ${v.name}'s sample` : `Play ${v.name}'s sample`}
                data-sample
                tabIndex={v.id === sampleStop ? 0 : -1}
                onFocus={() => setSampleFocus(v.id)}
                onKeyDown={(e) => moveFocus(e, list.current, '[data-sample]')}
                onClick={() => void play(v)}
              >
                <Icon name={playing === v.id ? 'stop' : 'play'} size={14} />
              </button>
            </li>
          );
        })}
        {shown.length === 0 && voices.length > 0 && <li className="muted small pad">No voice matches these filters.</li>}
      </ul>
      <audio ref={audio} onEnded={() => setPlaying(null)} onError={() => playing && setSampleError('The sample could not be played.')} hidden />
    </section>
  );
}
