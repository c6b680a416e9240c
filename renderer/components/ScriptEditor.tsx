// The script: name, text, character count against the limit, estimated spoken duration for
// the chosen voice, and a preview of the caption lines. Ctrl/Cmd+Enter renders.
import { useDeferredValue, useMemo } from 'react';
import { LIMITS } from '../../shared/contract/index.js';
import { scriptWarnings } from '../../shared/language/detect.js';
import { captionPages } from '../lib/captions.js';
import { estimateSeconds, formatDuration, wordsPerMinute, countWords } from '../lib/speech.js';
import { findTemplate, findVoice, useCatalogs } from '../store/catalogs.js';
import { useEditor, type SaveState } from '../store/editor.js';
import { ErrorNote } from './ErrorNote.js';

const SAVE_LABEL: Record<SaveState, string> = {
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Unsaved changes',
  error: 'Not saved — retrying',
};

export function SaveIndicator() {
  const state = useEditor((s) => s.saveState);
  const error = useEditor((s) => s.saveError);
  return (
    <span className={`save-state ${state}`} role="status" aria-live="polite" title={error ?? undefined} data-testid="save-state">
      <span className="dot" aria-hidden="true" />
      {SAVE_LABEL[state]}
    </span>
  );
}

export function ScriptEditor({ onRender }: { onRender(): void }) {
  const name = useEditor((s) => s.draft.name);
  const text = useEditor((s) => s.draft.text);
  const voiceId = useEditor((s) => s.draft.voiceId);
  const params = useEditor((s) => s.draft.params);
  const templateId = useEditor((s) => s.draft.templateId);
  const template = findTemplate(useCatalogs((s) => s.templates), templateId);
  const textError = useEditor((s) => s.fieldErrors.text);
  const saveError = useEditor((s) => s.saveError);
  const saveState = useEditor((s) => s.saveState);
  const update = useEditor((s) => s.update);
  const voices = useCatalogs((s) => s.voices);
  const voice = findVoice(voices, voiceId);

  const deferred = useDeferredValue(text);
  const length = text.trim().length;
  const over = length > LIMITS.textMaxChars;
  const seconds = useMemo(() => estimateSeconds(deferred, voice), [deferred, voice]);
  const words = useMemo(() => countWords(deferred), [deferred]);
  const pages = useMemo(() => captionPages(deferred, template, params), [deferred, template, params]);
  const lineCount = pages.reduce((n, p) => n + p.length, 0);
  // The same check the server stores on the job: a warning, never a block.
  const warnings = useMemo(() => (voice ? scriptWarnings(deferred, voice) : []), [deferred, voice]);

  return (
    <section className="panel script" aria-labelledby="script-heading">
      <div className="panel-head">
        <h2 id="script-heading">Script</h2>
        <SaveIndicator />
      </div>
      <label className="field">
        <span className="label">Name</span>
        <input className="input" value={name} maxLength={200} onChange={(e) => update({ name: e.target.value })} aria-label="Script name" />
      </label>
      <label className="field grow">
        <span className="label">Narration</span>
        <textarea
          id="script-text"
          className={`input script-text${textError ? ' invalid' : ''}`}
          value={text}
          placeholder="Write what your presenter says…"
          aria-label="Narration script"
          aria-invalid={textError ? true : undefined}
          aria-describedby="script-stats"
          dir="auto"
          spellCheck
          onChange={(e) => update({ text: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              onRender();
            }
          }}
        />
      </label>
      <div className="script-stats" id="script-stats">
        <span className={over ? 'over' : length > LIMITS.textMaxChars * 0.9 ? 'near' : ''} data-testid="char-count">
          {length.toLocaleString()} / {LIMITS.textMaxChars.toLocaleString()} characters
        </span>
        <span>{words.toLocaleString()} words</span>
        <span data-testid="duration" title={`${wordsPerMinute(voice)} words per minute${voice ? ` (${voice.name})` : ''}`}>
          ≈ {formatDuration(seconds)} spoken
        </span>
      </div>
      {warnings.map((w) => (
        <p key={w.code} className="warn-note" role="status" data-testid="language-warning">
          {w.message}
        </p>
      ))}
      {textError && <ErrorNote message={`Script ${textError}.`} />}
      {saveState === 'error' && <ErrorNote message={`Not saved yet (${saveError}). Your text is kept and saving is retried.`} />}
      <div className="captions-preview">
        <h3 className="label">
          Captions <span className="muted">({pages.length} screens, {lineCount} lines)</span>
        </h3>
        {pages.length === 0 ? (
          <p className="muted small">The caption screens appear here as you type, split as the video shows them.</p>
        ) : (
          <ol aria-label="Caption screens preview" data-testid="caption-pages">
            {pages.slice(0, 200).map((p, i) => (
              <li key={i}>
                {p.map((l, k) => (
                  <span key={k} className="caption-line" dir="auto">
                    {l}
                  </span>
                ))}
              </li>
            ))}
            {pages.length > 200 && <li className="muted">… {pages.length - 200} more</li>}
          </ol>
        )}
      </div>
    </section>
  );
}
