// Voices: search (name, locale or either id form), locale, gender and quality filters (only
// values some voice has), each voice's engine and quality tier, a sample player, and the
// download of a neural voice's pack with its progress (the studio downloads; this polls it).
import { useEffect, useMemo, useRef, useState } from 'react';
import type { VoiceEngine, VoicePackStatus, VoiceQuality } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import { findTemplate, findVoice, voiceIds, type CatalogVoice } from '../store/catalogs.js';
import { speakingPresenter, voiceSuits } from '../lib/presenters.js';

import { ErrorNote } from './ErrorNote.js';
import { VoicePack } from './VoicePack.js';
import { Icon } from './Icon.js';
import { moveFocus, tabStop } from '../lib/roving.js';
import { useCatalogs, useEditor, useStudio } from '../store/index.js';

const QUALITY_LABEL: Record<VoiceQuality, string> = { basic: 'Basic', standard: 'Standard', natural: 'Natural' };
const QUALITY_ORDER: VoiceQuality[] = ['natural', 'standard', 'basic'];
const ENGINE_LABEL: Record<VoiceEngine, string> = { espeak: 'eSpeak NG', pico: 'SVOX Pico', flite: 'Flite', piper: 'Piper neural', kokoro: 'Kokoro neural' };
const GENDER_LABEL: Record<string, string> = { female: 'Female', male: 'Male', neutral: 'Neutral' };

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

/**
 * How the list is ordered: best-sounding first, then the voices of the user's languages (exact
 * locale, then the same language, in the order the user ranks them); the catalog's order otherwise.
 */
export function voiceOrder(voices: CatalogVoice[], languages: readonly string[]): CatalogVoice[] {
  const tags = languages.map((l) => l.toLowerCase());
  const match = (locale: string) => {
    const l = locale.toLowerCase();
    const exact = tags.indexOf(l);
    if (exact >= 0) return exact;
    const same = tags.findIndex((t) => t.split('-')[0] === l.split('-')[0]);
    return same >= 0 ? tags.length + same : 2 * tags.length;
  };
  const quality = (v: CatalogVoice) => QUALITY_ORDER.indexOf(v.quality ?? 'basic');
  return voices
    .map((v, i) => ({ v, i, q: quality(v), m: match(v.locale) }))
    .sort((a, b) => a.q - b.q || a.m - b.m || a.i - b.i)
    .map((x) => x.v);
}

export function VoicePicker() {
  const voices = useCatalogs((s) => s.voices);
  const catalogError = useCatalogs((s) => s.error);
  const voiceId = useStudio((s) => s.document.voiceId);
  const presenterId = useStudio((s) => s.document.presenterId);
  const templateId = useStudio((s) => s.document.templateId);
  const templates = useCatalogs((s) => s.templates);
  const presenters = useCatalogs((s) => s.presenters);
  const presenter = useMemo(
    () => speakingPresenter({ presenterId }, findTemplate(templates, templateId), presenters),
    [presenterId, templateId, templates, presenters],
  );
  const fieldError = useEditor((s) => s.fieldErrors.voiceId);
  const update = useStudio((s) => s.update);
  const [q, setQ] = useState('');
  const [locale, setLocale] = useState('');
  const [gender, setGender] = useState('');
  const [quality, setQuality] = useState('');
  const [playing, setPlaying] = useState<string | null>(null);
  const [sampleError, setSampleError] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  // The sample buttons are one Tab stop; arrow keys move between them.
  const list = useRef<HTMLUListElement>(null);
  const [sampleFocus, setSampleFocus] = useState<string | null>(null);
  const [packFocus, setPackFocus] = useState<string | null>(null);
  const selected = findVoice(voices, voiceId);
  // A notice about one voice's sample says nothing once another is chosen.
  useEffect(() => setSampleError(null), [voiceId]);
  const selectedRow = useRef<HTMLLIElement>(null);
  /** Download states of the neural voices shown (their samples are spoken by the voice itself). */
  const [packs, setPacks] = useState<Record<string, VoicePackStatus['state']>>({});
  const packsKnown = Object.keys(packs).length;
  // The chosen voice in the middle of the list, wherever the order puts it: when the list is
  // shown and as the download lines under neural voices arrive (they move the rows), never on a
  // choice. Only the list scrolls (scrollIntoView would move the page too).
  useEffect(() => {
    const row = selectedRow.current;
    const box = list.current;
    if (row && box) box.scrollTop = Math.max(0, row.offsetTop - (box.clientHeight - row.offsetHeight) / 2);
  }, [voices, packsKnown]);

  const locales = useMemo(() => [...new Set(voices.map((v) => v.locale))].sort(), [voices]);
  // Only what some voice has: no "Neutral" without a neutral voice behind it.
  const genders = useMemo(() => ['female', 'male', 'neutral'].filter((g) => voices.some((v) => v.gender === g)), [voices]);
  const qualities = useMemo(() => QUALITY_ORDER.filter((q) => voices.some((v) => v.quality === q)), [voices]);
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return voiceOrder(voices, navigator.languages ?? [navigator.language]).filter(
      (v) =>
        (!locale || v.locale === locale) &&
        (!gender || v.gender === gender) &&
        (!quality || v.quality === quality) &&
        (!needle || [v.name, v.locale, localeName(v.locale), ...voiceIds(v)].some((s) => s.toLowerCase().includes(needle))),
    );
  }, [voices, q, locale, gender, quality]);
  const sampleStop = tabStop(
    shown.map((v) => v.id),
    sampleFocus,
    selected?.id ?? null,
  );
  // The download buttons are one Tab stop too (only voices not installed have one).
  const packStop = tabStop(
    shown.filter((v) => v.downloadBytes !== undefined && packs[v.id] !== 'installed' && packs[v.id] !== 'downloading' && packs[v.id] !== 'builtin').map((v) => v.id),
    packFocus,
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
    if (v.downloadBytes !== undefined && packs[v.id] !== 'installed') {
      setSampleError(`Download ${v.name} to hear a sample: the voice speaks it itself.`);
      return;
    }
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
      {selected && presenter && !voiceSuits(selected, presenter) && (
        <p className="voice-flag small" role="status" data-testid="voice-mismatch">
          {selected.name} is a {selected.gender} voice and {presenter.name} reads as {presenter.gender}: allowed, but viewers may notice. Voices marked “suits {presenter.name}” match.
        </p>
      )}
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
          {genders.map((g) => (
            <option key={g} value={g}>
              {GENDER_LABEL[g]}
            </option>
          ))}
        </select>
        {qualities.length > 0 && (
          <select className="input" aria-label="Quality" value={quality} onChange={(e) => setQuality(e.target.value)}>
            <option value="">Any quality</option>
            {qualities.map((x) => (
              <option key={x} value={x}>
                {QUALITY_LABEL[x]}
              </option>
            ))}
          </select>
        )}
      </div>
      <ErrorNote message={catalogError && !voices.length ? `Voices could not be loaded: ${catalogError}` : null} onRetry={() => void useCatalogs.getState().load()} />
      <ErrorNote message={fieldError ? `Voice ${fieldError}.` : null} />
      <ErrorNote message={sampleError} />
      <ul className="voice-list" role="radiogroup" aria-labelledby="voice-heading" ref={list}>
        {shown.map((v) => {
          const checked = selected?.id === v.id;
          const alias = voiceIds(v).find((id) => id !== v.id);
          return (
            <li key={v.id} className={`voice-row${checked ? ' selected' : ''}`} ref={checked ? selectedRow : undefined}>
              <label className="voice-choice">
                <input type="radio" name="voice" value={v.id} checked={checked} onChange={() => update({ voiceId: v.id })} />
                <span className="voice-name">{v.name}</span>
                <span className="muted small">
                  {localeName(v.locale)} · {v.gender}
                  {presenter?.gender && presenter.gender !== 'neutral' && voiceSuits(v, presenter) ? <span className="voice-suits"> · suits {presenter.name}</span> : null}
                </span>
                {v.quality && v.engine ? (
                  <span className={`voice-quality quality-${v.quality}`} data-testid="voice-quality">
                    {QUALITY_LABEL[v.quality]} · {ENGINE_LABEL[v.engine]}
                  </span>
                ) : (
                  <span />
                )}
                <span className="voice-id muted small">
                  {v.id}
                  {alias ? ` · #${alias}` : ''}
                </span>
              </label>
              {v.downloadBytes !== undefined && (
                <VoicePack
                  voice={v}
                  onState={(state) => setPacks((p) => (p[v.id] === state ? p : { ...p, [v.id]: state }))}
                  tabIndex={v.id === packStop ? 0 : -1}
                  onFocus={() => setPackFocus(v.id)}
                  onKeyDown={(e) => moveFocus(e, list.current, '[data-pack]')}
                />
              )}
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
      <audio ref={audio} data-testid="voice-sample-audio" onEnded={() => setPlaying(null)} onError={() => playing && setSampleError('The sample could not be played.')} hidden />
    </section>
  );
}
