// A neural voice's pack on a line of its own: the download (a button, then its progress, or why
// it failed and Retry) and the terms of the voice's data. Used in the voice list and by the
// render bar when a render needs the chosen voice's download first.
import { useEffect, useState } from 'react';
import type { VoicePackStatus } from '../../shared/contract/index.js';
import { call, describeError } from '../lib/bridge.js';
import { plainError } from '../lib/plain-error.js';
import type { CatalogVoice } from '../store/catalogs.js';

export const mb = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB`;

/** A neural voice's pack: its state, polled while it downloads; a button starts the download. */
export function VoicePack({ voice, onState, tabIndex, onFocus, onKeyDown }: { voice: CatalogVoice; onState: (state: VoicePackStatus['state']) => void } & Pick<React.ButtonHTMLAttributes<HTMLButtonElement>, 'tabIndex' | 'onFocus' | 'onKeyDown'>) {
  const [status, setStatus] = useState<VoicePackStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = (install: boolean) =>
    call('voices.pack', { voiceId: voice.id, install }).then(
      (s) => (setStatus(s), setError(null), onState(s.state)),
      (e: unknown) => setError(describeError(e)),
    );
  useEffect(() => void ask(false), [voice.id]);
  useEffect(() => {
    if (status?.state !== 'downloading') return;
    const t = setTimeout(() => void ask(false), 400);
    return () => clearTimeout(t);
  }, [status]);
  if (error) return <span className="voice-pack small error-text">{error}</span>;
  if (!status || status.state === 'builtin') return null;
  const total = status.totalBytes ?? voice.downloadBytes ?? 0;
  return (
    // A line of its own under the voice: the download and the terms of the voice's data, which
    // stay in view once installed (a published video may owe a credit).
    <span className="voice-pack small">
      {status.state === 'downloading' && (
        <progress className="voice-pack-progress" max={total || 1} value={status.receivedBytes ?? 0} aria-label={`Downloading ${voice.name}`}>
          {mb(status.receivedBytes ?? 0)} of {mb(total)}
        </progress>
      )}
      {status.state === 'failed' && <span className="error-text">{plainError(status.error ?? 'the download failed')}</span>}
      {(status.state === 'missing' || status.state === 'failed') && (
        <button type="button" className="btn small" data-pack tabIndex={tabIndex} onFocus={onFocus} onKeyDown={onKeyDown} onClick={() => void ask(true)}>
          {status.state === 'failed' ? 'Retry download' : `Download ${mb(total)}`}
        </button>
      )}
      {voice.licence && <span className="muted voice-licence">{voice.licence}</span>}
    </span>
  );
}
