// The script: the video's name, the selected scene's narration, its character count against the
// limit, the estimated spoken length of the scene and of the whole video for the chosen voice,
// and a preview of the scene's caption lines. Ctrl/Cmd+Enter renders. A pause is inserted from a
// button as `<break time="…"/>` and drawn as a chip over the text (the tag's characters hidden
// under it); Backspace or Delete next to a chip removes it whole.
import { useDeferredValue, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { breakSpans, breakTag, LIMITS, VIDEO_EDGES, withoutBreaks } from '../../shared/contract/index.js';
import { scriptWarnings, unreadableScript } from '../../shared/language/detect.js';
import { captionPages } from '../lib/captions.js';
import { formatDuration, paceLabel, countWords } from '../lib/speech.js';
import { sceneParams, sceneSeconds, videoSeconds } from '../lib/scenes.js';
import { findTemplate, findVoice } from '../store/catalogs.js';
import type { SaveState } from '../store/editor.js';
import { selectedScene } from '../store/document.js';
import { ErrorNote } from './ErrorNote.js';
import { useCatalogs, useEditor, useStudio } from '../store/index.js';

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
  const name = useStudio((s) => s.document.name);
  const scenes = useStudio((s) => s.document.scenes);
  const scene = useStudio(selectedScene);
  const sceneIndex = scenes.indexOf(scene);
  const text = scene.text;
  const voiceId = useStudio((s) => s.document.voiceId);
  const videoParams = useStudio((s) => s.document.params);
  const params = useMemo(() => sceneParams(videoParams, scene), [videoParams, scene]);
  const templateId = useStudio((s) => s.document.templateId);
  const template = findTemplate(useCatalogs((s) => s.templates), templateId);
  const textError = useEditor((s) => s.sceneErrors[scene.id]?.text);
  const saveError = useEditor((s) => s.saveError);
  const saveState = useEditor((s) => s.saveState);
  const update = useStudio((s) => s.update);
  const updateScene = useStudio((s) => s.updateScene);
  const voices = useCatalogs((s) => s.voices);
  const voice = findVoice(voices, voiceId);

  const deferred = useDeferredValue(text);
  const deferredScenes = useDeferredValue(scenes);
  const length = withoutBreaks(text).trim().length;
  const field = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLSpanElement>(null);
  const [pause, setPause] = useState(1);
  const spans = useMemo(() => breakSpans(text), [text]);
  const setText = (next: string, caret: number) => {
    updateScene(scene.id, { text: next });
    requestAnimationFrame(() => {
      field.current?.focus();
      field.current?.setSelectionRange(caret, caret);
    });
  };
  const insertPause = () => {
    const el = field.current;
    const at = el ? el.selectionEnd : text.length;
    const before = text.slice(0, at);
    const after = text.slice(at);
    // Spaced from the words on both sides, so typing goes on after it.
    const tag = `${before && !/\s$/.test(before) ? ' ' : ''}${breakTag(pause)}${/^\s/.test(after) ? '' : ' '}`;
    setText(before + tag + after, at + tag.length);
  };
  /** Backspace after a chip or Delete before one takes the whole tag. */
  const removeChip = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const el = e.currentTarget;
    if (el.selectionStart !== el.selectionEnd) return false;
    const at = el.selectionStart;
    const hit = spans.find((s) => (e.key === 'Backspace' ? s.end === at : s.start === at));
    if (!hit) return false;
    e.preventDefault();
    setText(text.slice(0, hit.start) + text.slice(hit.end), hit.start);
    return true;
  };
  const over = length > LIMITS.textMaxChars;
  const seconds = useMemo(() => sceneSeconds({ text: deferred, minSeconds: scene.minSeconds }, voice), [deferred, scene.minSeconds, voice]);
  const total = useMemo(() => videoSeconds(deferredScenes, voice), [deferredScenes, voice]);
  const words = useMemo(() => countWords(withoutBreaks(deferred)), [deferred]);
  const pages = useMemo(() => captionPages(deferred, template, params), [deferred, template, params]);
  const many = scenes.length > 1;
  const lineCount = pages.reduce((n, p) => n + p.length, 0);
  // The same check the server stores on the job: a warning, never a block.
  const warnings = useMemo(() => (voice ? scriptWarnings(deferred, voice) : []), [deferred, voice]);
  // What the server refuses (422 on the text): said before the render is asked for.
  const unreadable = useMemo(() => (voice ? unreadableScript(deferred, voice, voices) : null), [deferred, voice, voices]);

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
        <span className="label">{many ? `Narration · scene ${sceneIndex + 1} of ${scenes.length}` : 'Narration'}</span>
        <span className={`script-field${spans.length ? ' with-chips' : ''}`}>
        {spans.length > 0 && (
          <span className="input script-text script-backdrop" ref={backdrop} aria-hidden="true" dir="auto">
            {chipped(text, spans)}
          </span>
        )}
        <textarea
          ref={field}
          id="script-text"
          className={`input script-text${textError ? ' invalid' : ''}`}
          value={text}
          onScroll={(e) => {
            if (backdrop.current) backdrop.current.scrollTop = e.currentTarget.scrollTop;
          }}
          placeholder="Write what your presenter says…"
          aria-label={many ? `Narration of scene ${sceneIndex + 1}` : 'Narration script'}
          aria-invalid={textError ? true : undefined}
          aria-describedby="script-stats"
          dir="auto"
          spellCheck
          onChange={(e) => updateScene(scene.id, { text: e.target.value })}
          onKeyDown={(e) => {
            if ((e.key === 'Backspace' || e.key === 'Delete') && removeChip(e)) return;
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              onRender();
            }
          }}
        />
        </span>
      </label>
      <div className="script-tools">
        <select className="input" aria-label="Pause length" value={pause} onChange={(e) => setPause(Number(e.target.value))}>
          {PAUSES.map((s) => (
            <option key={s} value={s}>
              {s} s
            </option>
          ))}
        </select>
        <button type="button" className="btn" onClick={insertPause} title="Insert a pause where the cursor is: silence in the narration, nothing in the captions">
          Insert pause
        </button>
      </div>
      <div className="script-stats" id="script-stats">
        <span className={over ? 'over' : length > LIMITS.textMaxChars * 0.9 ? 'near' : ''} data-testid="char-count">
          {length.toLocaleString()} / {LIMITS.textMaxChars.toLocaleString()} characters
        </span>
        <span>{words.toLocaleString()} words</span>
        <span data-testid="duration" title={`${paceLabel(voice)}${voice ? `, ${voice.name}` : ''}${scene.minSeconds ? `; this scene lasts at least ${scene.minSeconds} s` : ''}`}>
          ≈ {formatDuration(seconds)} {many ? 'this scene' : 'spoken'}
        </span>
        <span data-testid="video-duration" title={`${many ? "The sum of every scene's estimate" : 'The narration'}, with the video's ${VIDEO_EDGES.leadInSeconds} s start and ${VIDEO_EDGES.tailSeconds} s end`}>
          ≈ {formatDuration(total)} video
        </span>
      </div>
      {warnings.map((w) => (
        <p key={w.code} className="warn-note" role="status" data-testid="language-warning">
          {w.message}
        </p>
      ))}
      {unreadable && (
        <p className="error-note" role="alert" data-testid="language-error">
          This script cannot be rendered: {unreadable.message}.
        </p>
      )}
      {textError && <ErrorNote message={`${many ? `Scene ${sceneIndex + 1}'s narration` : 'Script'} ${textError}.`} />}
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

const PAUSES = [0.5, 1, 2, 3, 5];

/** The script with each pause tag as a chip (its characters kept, hidden, so the chip sits where the textarea has them). */
function chipped(text: string, spans: { start: number; end: number; pause: number }[]) {
  const out: ReactNode[] = [];
  let at = 0;
  for (const s of spans) {
    out.push(text.slice(at, s.start));
    out.push(
      <mark key={s.start} className="pause-chip" data-label={`⏸ ${s.pause} s pause`} data-testid="pause-chip">
        {text.slice(s.start, s.end)}
      </mark>,
    );
    at = s.end;
  }
  // A trailing newline needs a character after it to take its line.
  out.push(`${text.slice(at)}\u200b`);
  return out;
}
