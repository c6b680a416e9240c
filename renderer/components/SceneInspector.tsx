// The selected scene's own settings: its background (the template's, or one of the creator's
// pictures, clips or document pages, with fit, a clip's start offset, a document's page), the
// presenter on or off and its own placement, the transition in, and an optional minimum length.
// Problems the render API named on this scene are shown here.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { BACKGROUND_FITS, SCENE_MIN_SECONDS_MAX, TRANSITIONS, type Asset, type BackgroundFit } from '../../shared/contract/index.js';
import { media } from '../canvas/pictures.js';
import { call, describeError } from '../lib/bridge.js';
import { offers } from '../lib/capabilities.js';
import { TRANSITION_LABEL } from '../lib/scenes.js';
import { selectedScene } from '../store/document.js';
import { useCatalogs, useEditor, useMedia, useStudio } from '../store/index.js';
import { ErrorNote } from './ErrorNote.js';

const FIT_LABEL: Record<BackgroundFit, string> = { cover: 'Fill', contain: 'Fit' };
const FIELD_LABEL: Record<string, string> = {
  '': 'This scene',
  background: 'Background',
  'background.assetId': 'Background',
  'background.page': 'Page',
  'background.trimStart': 'Start at',
  'background.fit': 'Fit',
  minSeconds: 'Minimum length',
  transition: 'Transition',
  avatar: 'Placement',
};
const fieldLabel = (f: string) => FIELD_LABEL[f] ?? (f.startsWith('avatar') ? 'Placement' : f);

/** Library assets a scene can stand on (all of them, whatever the library panel's search; read again when the library changes). */
function useBackgroundAssets(enabled: boolean): { assets: Asset[]; error: string | null } {
  const [state, setState] = useState<{ assets: Asset[]; error: string | null }>({ assets: [], error: null });
  const library = useMedia((s) => s.assets);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    call('assets.list', { limit: 100 }).then(
      (r) => live && setState({ assets: r.assets.filter((a) => a.kind !== 'audio'), error: null }),
      (e: unknown) => live && setState({ assets: [], error: describeError(e) }),
    );
    return () => {
      live = false;
    };
  }, [enabled, library]);
  return state;
}

export function SceneInspector() {
  const scene = useStudio(selectedScene);
  const index = useStudio((s) => s.document.scenes.indexOf(selectedScene(s)));
  const videoAvatar = useStudio((s) => s.document.params.avatar);
  const update = useStudio((s) => s.updateScene);
  const errors = useEditor((s) => s.sceneErrors[scene.id]);
  const caps = useStudio((s) => s.settings.capabilities);
  const scenesOn = offers(caps, 'scenes');
  const assetsOn = offers(caps, 'assets');
  const presentersOn = offers(caps, 'presenters');
  const presenters = useCatalogs((s) => s.presenters);
  const bg = scene.background;
  const [pickerOpen, setPickerOpen] = useState(false);
  const library = useBackgroundAssets(assetsOn && pickerOpen);
  const asset = useSyncExternalStore(media.subscribe, () => (bg ? media.asset(bg.assetId) : undefined));
  const [minText, setMinText] = useState(scene.minSeconds === null ? '' : String(scene.minSeconds));
  useEffect(() => setMinText(scene.minSeconds === null ? '' : String(scene.minSeconds)), [scene.id, scene.minSeconds]);
  // Against an API without scenes, a scene has nothing of its own to set.
  if (!scenesOn) return null;

  const otherErrors = Object.entries(errors ?? {}).filter(([f]) => f !== 'text');
  const commitMin = (text: string) => {
    setMinText(text);
    if (text.trim() === '') return update(scene.id, { minSeconds: null });
    const v = Number(text.replace(',', '.'));
    if (Number.isFinite(v) && v >= 0 && v <= SCENE_MIN_SECONDS_MAX) update(scene.id, { minSeconds: v });
  };

  return (
    <section className="panel inspector" aria-labelledby="inspector-heading">
      <div className="panel-head">
        <h2 id="inspector-heading">Scene {index + 1}</h2>
      </div>
      {otherErrors.map(([f, m]) => (
        <ErrorNote key={f} message={`${fieldLabel(f)}: ${m}.`} />
      ))}
      {assetsOn && (
        <div className="inspector-row" role="group" aria-labelledby="bg-label">
          <span className="label" id="bg-label">
            Background
          </span>
          <div className="bg-choice">
            <select
              className="input"
              aria-label="Background"
              value={bg?.assetId ?? ''}
              onFocus={() => setPickerOpen(true)}
              onMouseDown={() => setPickerOpen(true)}
              onChange={(e) => {
                const id = e.target.value;
                const a = library.assets.find((x) => x.id === id);
                if (!id) update(scene.id, { background: null });
                else update(scene.id, { background: { assetId: id, fit: bg?.fit ?? 'cover', ...(a?.kind === 'document' ? { page: 1 } : {}) } });
              }}
            >
              <option value="">Template background</option>
              {bg && !library.assets.some((a) => a.id === bg.assetId) && <option value={bg.assetId}>{asset?.value?.name ?? 'Chosen file'}</option>}
              {library.assets.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.kind === 'document' ? `${a.pages ?? '?'} pages` : a.kind})
                </option>
              ))}
            </select>
            {library.error && <span className="field-note">{library.error}</span>}
          </div>
          {bg && (
            <div className="inspector-sub">
              <div className="segmented" role="radiogroup" aria-label="Fit">
                {BACKGROUND_FITS.map((f) => (
                  <button key={f} type="button" role="radio" aria-checked={bg.fit === f} title={f === 'cover' ? 'Fill the frame (edges may be cropped)' : 'Show all of it (bars where the shape differs)'} onClick={() => update(scene.id, { background: { ...bg, fit: f } })}>
                    {FIT_LABEL[f]}
                  </button>
                ))}
              </div>
              {asset?.value?.kind === 'video' && (
                <NumberInput label="Start at (s)" value={bg.trimStart ?? 0} min={0} max={asset.value.durationSeconds ?? 86_400} step={0.1} onCommit={(v) => update(scene.id, { background: { ...bg, trimStart: v } })} />
              )}
              {asset?.value?.kind === 'document' && (
                <NumberInput label="Page" value={bg.page ?? 1} min={1} max={asset.value.pages ?? 100_000} step={1} onCommit={(v) => update(scene.id, { background: { ...bg, page: Math.round(v) } })} />
              )}
              {asset?.error && <span className="field-note">{asset.error}</span>}
            </div>
          )}
        </div>
      )}
      <div className="inspector-row">
        <label className="check">
          <input type="checkbox" checked={scene.presenter} onChange={(e) => update(scene.id, { presenter: e.target.checked })} />
          Presenter in this scene
        </label>
        {scene.presenter && (
          <label className="check" title="Off: this scene places the presenter as the rest of the video does">
            <input type="checkbox" checked={scene.avatar !== null} onChange={(e) => update(scene.id, { avatar: e.target.checked ? { ...videoAvatar } : null })} />
            Own placement
          </label>
        )}
        {scene.presenter && presentersOn && presenters.length > 0 && (
          <label className="check">
            Presenter
            <select
              className="input"
              aria-label="This scene's presenter"
              value={scene.presenterId ?? ''}
              onChange={(e) => update(scene.id, { presenterId: e.target.value || null })}
            >
              <option value="">The video's</option>
              {presenters.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <div className="inspector-row">
        <span className="label" id="transition-label">
          Transition in
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby="transition-label">
          {TRANSITIONS.map((t) => (
            <button key={t} type="button" role="radio" aria-checked={scene.transition === t} onClick={() => update(scene.id, { transition: t })}>
              {TRANSITION_LABEL[t]}
            </button>
          ))}
        </div>
      </div>
      <label className="inspector-row">
        <span className="label">Minimum length</span>
        <span className="min-length">
          <input
            className="input num"
            type="number"
            inputMode="decimal"
            min={0}
            max={SCENE_MIN_SECONDS_MAX}
            step={0.5}
            placeholder="as spoken"
            value={minText}
            aria-label="Minimum length in seconds"
            onChange={(e) => commitMin(e.target.value)}
          />
          <span className="muted small">s</span>
        </span>
      </label>
    </section>
  );
}

function NumberInput({ label, value, min, max, step, onCommit }: { label: string; value: number; min: number; max: number; step: number; onCommit(v: number): void }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  return (
    <label className="field compact">
      <span className="label">{label}</span>
      <input
        className="input num"
        type="number"
        min={min}
        max={max}
        step={step}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const v = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(v) && v >= min && v <= max && v !== value) onCommit(v);
        }}
        onBlur={() => setText(String(value))}
      />
    </label>
  );
}
