// The script: the video's name, the selected scene's narration, its character count against the
// limit, the estimated spoken length of the scene and of the whole video for the chosen voice,
// and a preview of the scene's caption lines. Ctrl/Cmd+Enter renders.
import { useDeferredValue, useMemo } from 'react';
import { LIMITS, VIDEO_EDGES } from '../../shared/contract/index.js';
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
  const length = text.trim().length;
  const over = length > LIMITS.textMaxChars;
  const seconds = useMemo(() => sceneSeconds({ text: deferred, minSeconds: scene.minSeconds }, voice), [deferred, scene.minSeconds, voice]);
  const total = useMemo(() => videoSeconds(deferredScenes, voice), [deferredScenes, voice]);
  const words = useMemo(() => countWords(deferred), [deferred]);
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
        <textarea
          id="script-text"
          className={`input script-text${textError ? ' invalid' : ''}`}
          value={text}
          placeholder="Write what your presenter says…"
          aria-label={many ? `Narration of scene ${sceneIndex + 1}` : 'Narration script'}
          aria-invalid={textError ? true : undefined}
          aria-describedby="script-stats"
          dir="auto"
          spellCheck
          onChange={(e) => updateScene(scene.id, { text: e.target.value })}
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
