// The scenes of the video, in order, under the canvas: select, add, duplicate, delete (Undo
// brings it back, as Ctrl+Z does), reorder by dragging a card or with Alt+arrows on the
// selected one. The list is one Tab stop: arrow keys move between scenes, Delete deletes.
import { useRef, useState } from 'react';
import type { DocumentScene } from '../../shared/contract/document.js';
import { scriptExcerpt } from '../lib/excerpt.js';
import { offers } from '../lib/capabilities.js';
import { formatDuration } from '../lib/speech.js';
import { sceneParams, sceneSeconds, TRANSITION_LABEL, videoSeconds } from '../lib/scenes.js';
import { findTemplate, findVoice } from '../store/catalogs.js';
import { undo, useCatalogs, useEditor, useStudio, useUi } from '../store/index.js';
import { Icon } from './Icon.js';
import { SceneThumb } from './SceneThumb.js';

/** The drag data of a scene card: other drags (files from the desktop) pass through untouched. */
const SCENE_DRAG = 'application/x-presenter-scene';

/** Deletes a scene with a notice whose Undo is the document's undo. */
export function deleteSceneWithUndo(id: string): void {
  const s = useStudio.getState();
  const n = s.document.scenes.findIndex((x) => x.id === id) + 1;
  if (!n) return;
  s.deleteScene(id);
  useUi.getState().notify({ kind: 'info', text: `Deleted scene ${n}.`, action: { label: 'Undo', run: undo } }, 8000);
}

export function SceneStrip() {
  const scenes = useStudio((s) => s.document.scenes);
  const selectedId = useStudio((s) => s.selectedSceneId);
  const params = useStudio((s) => s.document.params);
  const template = findTemplate(useCatalogs((s) => s.templates), useStudio((s) => s.document.templateId));
  const voice = findVoice(useCatalogs((s) => s.voices), useStudio((s) => s.document.voiceId));
  const sceneErrors = useEditor((s) => s.sceneErrors);
  const canAdd = useStudio((s) => offers(s.settings.capabilities, 'scenes'));
  const list = useRef<HTMLOListElement>(null);
  /** Where a dragged card would land: before the card at this index. */
  const [dropAt, setDropAt] = useState<number | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  // A render API without scenes, and a video of one scene: nothing to show.
  if (!canAdd && scenes.length === 1) return null;

  const focusCard = (id: string) => requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-scene-id="${id}"] .scene-card`)?.focus());
  const act = (id: string, run: () => void) => {
    run();
    focusCard(useStudio.getState().selectedSceneId ?? id);
  };
  const onKey = (e: React.KeyboardEvent, scene: DocumentScene, i: number) => {
    const s = useStudio.getState();
    const back = e.key === 'ArrowLeft' || e.key === 'ArrowUp';
    const forward = e.key === 'ArrowRight' || e.key === 'ArrowDown';
    if ((back || forward) && e.altKey) {
      e.preventDefault();
      act(scene.id, () => s.moveScene(scene.id, back ? -1 : 1));
    } else if (back || forward || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const to = e.key === 'Home' ? 0 : e.key === 'End' ? scenes.length - 1 : Math.max(0, Math.min(scenes.length - 1, i + (back ? -1 : 1)));
      act(scenes[to]!.id, () => s.selectScene(scenes[to]!.id));
    } else if (e.key === 'Delete') {
      e.preventDefault();
      act(scene.id, () => deleteSceneWithUndo(scene.id));
    }
  };
  const drop = (e: React.DragEvent) => {
    const id = e.dataTransfer.getData(SCENE_DRAG);
    if (!id || dropAt === null) return;
    e.preventDefault();
    const from = scenes.findIndex((s) => s.id === id);
    useStudio.getState().moveSceneTo(id, dropAt > from ? dropAt - 1 : dropAt);
    setDropAt(null);
  };

  return (
    <section className="panel scenes" aria-labelledby="scenes-heading">
      <div className="panel-head">
        <h2 id="scenes-heading">
          Scenes <span className="muted scenes-total">{scenes.length} · ≈ {formatDuration(videoSeconds(scenes, voice))}</span>
        </h2>
        {canAdd && (
          <button type="button" className="btn small" onClick={() => act('', () => useStudio.getState().addScene())} aria-label="Add scene" title="Add a scene after the selected one">
            <Icon name="plus" size={14} /> Add scene
          </button>
        )}
      </div>
      <ol
        className="scene-strip"
        ref={list}
        aria-labelledby="scenes-heading"
        aria-describedby="scenes-keys"
        onDragOver={(e) => {
          if (!e.dataTransfer.types.includes(SCENE_DRAG)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
        }}
        onDrop={drop}
      >
        {scenes.map((scene, i) => {
          const selected = scene.id === selectedId;
          const errors = sceneErrors[scene.id];
          const excerpt = scriptExcerpt(scene.text, 160); // the card shows two lines of it
          const name = `Scene ${i + 1}`;
          return (
            <li
              key={scene.id}
              data-scene-id={scene.id}
              className={`scene-item${selected ? ' selected' : ''}${dragging === scene.id ? ' dragging' : ''}${dropAt === i ? ' drop-before' : ''}${dropAt === scenes.length && i === scenes.length - 1 ? ' drop-after' : ''}`}
              draggable
              onDragStart={(e) => {
                e.dataTransfer.setData(SCENE_DRAG, scene.id);
                e.dataTransfer.effectAllowed = 'move';
                setDragging(scene.id);
              }}
              onDragEnd={() => {
                setDragging(null);
                setDropAt(null);
              }}
              onDragOver={(e) => {
                if (!e.dataTransfer.types.includes(SCENE_DRAG)) return;
                const r = e.currentTarget.getBoundingClientRect();
                setDropAt(e.clientX > r.left + r.width / 2 ? i + 1 : i);
              }}
            >
              <button
                type="button"
                className="scene-card"
                aria-current={selected ? 'true' : undefined}
                aria-label={`${name}${excerpt ? `: ${excerpt}` : ', no narration yet'}${scene.presenter ? '' : ', no presenter'}${errors ? ', has a problem' : ''}`}
                aria-keyshortcuts="Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown Delete"
                tabIndex={selected ? 0 : -1}
                onClick={() => useStudio.getState().selectScene(scene.id)}
                onKeyDown={(e) => onKey(e, scene, i)}
              >
                <span className="scene-thumb-wrap">
                  <SceneThumb scene={scene} template={template} params={sceneParams(params, scene)} />
                  <span className="scene-index" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span className="scene-length" aria-hidden="true">
                    {formatDuration(sceneSeconds(scene, voice))}
                  </span>
                </span>
                <span className={`scene-excerpt${excerpt ? '' : ' muted'}`} dir="auto">
                  {excerpt || 'No narration yet'}
                </span>
                <span className="scene-badges" aria-hidden="true">
                  {!scene.presenter && (
                    <span className="scene-badge" title="No presenter in this scene" data-testid="badge-no-presenter">
                      <Icon name="noPerson" size={11} /> No presenter
                    </span>
                  )}
                  {i > 0 && scene.transition !== 'cut' && (
                    <span className="scene-badge" title={`${TRANSITION_LABEL[scene.transition]} in`}>
                      {TRANSITION_LABEL[scene.transition]}
                    </span>
                  )}
                  {errors && (
                    <span className="scene-badge error" title={Object.values(errors).join('; ')}>
                      !
                    </span>
                  )}
                </span>
              </button>
              <span className="scene-actions">
                {canAdd && (
                  <button type="button" className="icon-btn" tabIndex={selected ? 0 : -1} aria-label={`Duplicate ${name.toLowerCase()}`} title="Duplicate" onClick={() => act(scene.id, () => useStudio.getState().duplicateScene(scene.id))}>
                    <Icon name="duplicate" size={14} />
                  </button>
                )}
                <button type="button" className="icon-btn danger" tabIndex={selected ? 0 : -1} aria-label={`Delete ${name.toLowerCase()}`} title="Delete (Delete key)" onClick={() => act(scene.id, () => deleteSceneWithUndo(scene.id))}>
                  <Icon name="trash" size={14} />
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <p id="scenes-keys" className="sr-only">
        Arrow keys choose a scene; Alt with an arrow key moves it; Delete deletes it; Ctrl+Z undoes.
      </p>
    </section>
  );
}
