// The pronunciation dictionary (settings): words the voices should say another way ("nginx" as
// "engine x"), each heard in the video's voice before it is used, kept in the app's settings and
// sent with every job as its `lexicon`. Captions keep the written word.
import { useEffect, useRef, useState } from 'react';
import { LexiconEntry, SOUND_LIMITS } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import { findVoice } from '../store/catalogs.js';
import { useCatalogs, useSettings, useStudio } from '../store/index.js';
import { offers } from '../lib/capabilities.js';
import { ErrorNote } from './ErrorNote.js';

export function PronunciationPanel() {
  const [entries, setEntries] = useState<LexiconEntry[] | null>(null);
  const [word, setWord] = useState('');
  const [say, setSay] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const voice = findVoice(useCatalogs((s) => s.voices), useStudio((s) => s.document.voiceId));
  const sound = offers(useSettings((s) => s.capabilities), 'sound');

  useEffect(() => {
    call('settings.get', undefined).then(
      (s) => setEntries(s.pronunciation),
      (e: unknown) => setError(`The dictionary could not be read: ${describeError(e)}`),
    );
    return () => audio.current?.pause();
  }, []);

  const save = async (next: LexiconEntry[]) => {
    try {
      setEntries((await call('settings.save', { pronunciation: next })).pronunciation);
      setError(null);
      return true;
    } catch (e) {
      setError(`Not saved: ${describeError(e)}`);
      return false;
    }
  };

  const add = async () => {
    const parsed = LexiconEntry.safeParse({ text: word, say });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setError(`${issue.path[0] === 'text' ? 'The word' : 'How to say it'} ${issue.message}.`);
      return; // what was typed stays
    }
    const rest = (entries ?? []).filter((e) => e.text.toLowerCase() !== parsed.data.text.toLowerCase());
    if (rest.length >= SOUND_LIMITS.lexiconMax) {
      setError(`The dictionary holds at most ${SOUND_LIMITS.lexiconMax} words.`);
      return;
    }
    if (await save([...rest, parsed.data])) {
      setWord('');
      setSay('');
    }
  };

  const hear = async (text: string) => {
    if (!voice) return;
    try {
      setPlaying(text);
      const { wavBase64 } = await call('voices.say', { voiceId: voice.id, text });
      const bytes = Uint8Array.from(atob(wavBase64), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: 'audio/wav' }));
      audio.current?.pause();
      const a = new Audio(url);
      audio.current = a;
      await a.play();
      // Done once it has played through (also where no sound device lets "ended" fire).
      setTimeout(() => {
        URL.revokeObjectURL(url);
        setPlaying(null);
      }, (Number.isFinite(a.duration) ? a.duration : 3) * 1000 + 200);
    } catch (e) {
      setPlaying(null);
      setError(`Could not play it: ${describeError(e)}`);
    }
  };

  return (
    <section className="panel" aria-labelledby="pronunciation-heading">
      <div className="panel-head">
        <h2 id="pronunciation-heading">Pronunciation</h2>
      </div>
      <p className="muted small">
        Words the voice should say another way. Captions keep the word as you write it.
        {!sound && ' This render API does not take a dictionary: it is kept for one that does.'}
      </p>
      <form
        className="lexicon-add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <input className="input" aria-label="Word" placeholder="Word, e.g. nginx" value={word} maxLength={SOUND_LIMITS.lexiconTextMaxChars} onChange={(e) => setWord(e.target.value)} />
        <input className="input" aria-label="How to say it" placeholder="Say it as, e.g. engine x" value={say} maxLength={SOUND_LIMITS.lexiconSayMaxChars} onChange={(e) => setSay(e.target.value)} />
        <button type="button" className="btn" disabled={!say.trim() || !voice || !sound} title={voice ? `Hear it as ${voice.name} says it` : undefined} onClick={() => void hear(say.trim())}>
          Hear it
        </button>
        <button type="submit" className="btn primary">
          Add
        </button>
      </form>
      <ErrorNote message={error} />
      {entries && entries.length > 0 && (
        <ul className="lexicon-list" aria-label="Pronunciation dictionary">
          {entries.map((e) => (
            <li key={e.text}>
              <span className="lexicon-word">{e.text}</span>
              <span className="muted" aria-hidden="true">→</span>
              <span className="lexicon-say">{e.say}</span>
              <button type="button" className="btn small" aria-label={`Hear ${e.text}`} disabled={!voice || !sound || playing !== null} onClick={() => void hear(e.say)}>
                {playing === e.say ? 'Playing…' : 'Hear'}
              </button>
              <button type="button" className="btn small" aria-label={`Remove ${e.text}`} onClick={() => void save((entries ?? []).filter((x) => x !== e))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
