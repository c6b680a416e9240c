// The selected scene as the video shows it (its background, its presenter or none), and WYSIWYG
// presenter placement: a drag edits the placement PlacementFields shows (the scene's own when it
// has one, else the video's). Pointer, wheel and drag work writes to the transient
// `livePlacement` store; a subscription redraws at most once per animation frame; the editor
// store (and so React) only hears the final value when the gesture ends. What a gesture does
// is decided by the pure reducer in canvas/gesture.ts; this component only wires DOM events to it.
import { useEffect, useRef } from 'react';
import { ASPECT_RATIOS, type AspectRatio, type Brand, outputSize } from '../../shared/contract/index.js';
import { brandFont, sceneBrand, type ImageLike, type SceneBrand } from '../../shared/scene/index.js';
import { drawPreview } from '../canvas/drawPreview.js';
import { reduceGesture, type GestureEvent, type GestureState } from '../canvas/gesture.js';
import { layoutPresenter, onSceneAssets } from '../canvas/scene.js';
import { media } from '../canvas/pictures.js';
import { sceneParams } from '../lib/scenes.js';
import { selectedScene } from '../store/document.js';
import { findTemplate } from '../store/catalogs.js';

import { commitLiveLater, dropLive, livePlacement } from '../store/placement.js';
import { PlacementFields } from './PlacementFields.js';
import { useCatalogs, useStudio } from '../store/index.js';

const STAGE_MAX_HEIGHT = 440;

/** A wheel gesture has no end event: its scale is committed after this pause. */
const WHEEL_COMMIT_MS = 250;

export function PresenterCanvas() {
  const frame = useRef<HTMLDivElement>(null);
  const sceneRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const aspectRatio = useStudio((s) => s.document.params.aspectRatio);
  const templateId = useStudio((s) => s.document.templateId);
  const templates = useCatalogs((s) => s.templates);
  const template = findTemplate(templates, templateId);
  const setAspectRatio = useStudio((s) => s.setAspectRatio);
  const presenter = useStudio((s) => selectedScene(s).presenter);
  const sceneCount = useStudio((s) => s.document.scenes.length);
  const sceneIndex = useStudio((s) => s.document.scenes.indexOf(selectedScene(s)));
  const out = outputSize(aspectRatio);

  useEffect(() => {
    const box = frame.current;
    const scene = sceneRef.current;
    const overlay = overlayRef.current;
    if (!box || !scene || !overlay) return;
    let cssW = box.clientWidth;
    let cssH = box.clientHeight;
    let raf = 0;
    let gesture: GestureState = null;
    let focused = false;

    const current = () => {
      const st = useStudio.getState();
      const sc = selectedScene(st);
      const live = livePlacement.getState();
      const committed = sceneParams(st.document.params, sc);
      const params = live.avatar ? { ...committed, avatar: live.avatar } : committed;
      const presenterId = sc.presenterId ?? st.document.presenterId ?? undefined;
      return { scene: sc, committed, live, params, presenterId, template: findTemplate(st.catalogs.templates, st.document.templateId) };
    };
    const draw = () => {
      raf = 0;
      const { scene: sc, live, params, presenterId, template } = current();
      const bg = sc.background;
      const loaded = bg ? media.picture(bg) : undefined;
      const picture = bg && loaded?.value ? { ...loaded.value, fit: bg.fit } : null;
      const accent = getComputedStyle(box).getPropertyValue('--accent').trim() || '#6c5ce7';
      const branded = previewBrand(useStudio.getState().document.brand);
      const drawn = drawPreview(scene, overlay, cssW, cssH, {
        template, params, caption: sc.text, picture, presenter: sc.presenter, presenterId, guidesX: live.guidesX, guidesY: live.guidesY, active: gesture !== null, focused, ...branded,
      }, accent);
      scene.dataset.presenter = String(sc.presenter);
      // Which kind of presenter the canvas drew ('photo' once a photo presenter's picture is in).
      scene.dataset.rig = sc.presenter && drawn ? drawn : '';
      scene.dataset.background = bg ? (picture ? 'asset' : loaded?.error ? 'failed' : 'loading') : 'template';
      // What the canvas shows, for people using assistive tech and for tests.
      scene.dataset.x = String(params.avatar.x);
      scene.dataset.y = String(params.avatar.y);
      scene.dataset.scale = String(params.avatar.scale);
      scene.dataset.aspectRatio = params.aspectRatio;
    };
    const schedule = () => {
      if (!raf) raf = requestAnimationFrame(draw);
    };

    // DOM events become gesture events; the reducer decides, this applies its output.
    const dispatch = (e: Event, event: GestureEvent, r: DOMRect = overlay.getBoundingClientRect()): void => {
      const { scene: sc, committed, params, presenterId, template } = current();
      if (!sc.presenter) return; // nothing to place in a scene without the presenter
      const was = gesture;
      const out = reduceGesture(gesture, event, { templateId: template?.id ?? '', presenterId: layoutPresenter(presenterId), params, committed: committed.avatar, width: r.width, height: r.height });
      gesture = out.state;
      if (out.handled) e.preventDefault();
      if (out.focus) overlay.focus();
      if (out.capture !== undefined) {
        try {
          overlay.setPointerCapture(out.capture);
        } catch {
          /* synthetic or already-released pointers cannot be captured; the drag still works inside the canvas */
        }
      }
      if (out.cursor) overlay.style.cursor = out.cursor;
      if (out.live) livePlacement.setState(out.live);
      if (out.commit) useStudio.getState().setAvatar(out.commit); // clears the live value too
      if (out.dropLive) dropLive();
      if (out.commitLive) commit();
      if (out.commitLiveLater) commitLiveLater(commit, WHEEL_COMMIT_MS);
      if (gesture !== was) schedule(); // the box is drawn active while a gesture is under way
    };
    const commit = () => {
      const a = livePlacement.getState().avatar;
      if (a) useStudio.getState().setAvatar(a); // clears the live value too
    };
    /** A pointer event's position from the canvas's top-left, CSS px. */
    const pointer = (e: PointerEvent, handle: (p: { pointerId: number; x: number; y: number }) => GestureEvent) => {
      const r = overlay.getBoundingClientRect();
      dispatch(e, handle({ pointerId: e.pointerId, x: e.clientX - r.left, y: e.clientY - r.top }), r);
    };
    const onDown = (e: PointerEvent) => pointer(e, (p) => ({ type: 'pointerdown', button: e.button, ...p }));
    const onMove = (e: PointerEvent) => pointer(e, (p) => ({ type: 'pointermove', altKey: e.altKey, ...p }));
    const onUp = (e: PointerEvent) => dispatch(e, { type: 'pointerup', pointerId: e.pointerId });
    const onCancel = (e: PointerEvent) => dispatch(e, { type: 'pointercancel', pointerId: e.pointerId });
    const onWheel = (e: WheelEvent) => dispatch(e, { type: 'wheel', deltaY: e.deltaY });
    const onKey = (e: KeyboardEvent) => dispatch(e, { type: 'key', key: e.key, shiftKey: e.shiftKey });
    const onFocus = () => {
      focused = true;
      schedule();
    };
    const onBlur = () => {
      focused = false;
      schedule();
    };

    overlay.addEventListener('pointerdown', onDown);
    overlay.addEventListener('pointermove', onMove);
    overlay.addEventListener('pointerup', onUp);
    overlay.addEventListener('pointercancel', onCancel);
    overlay.addEventListener('lostpointercapture', onCancel);
    overlay.addEventListener('wheel', onWheel, { passive: false });
    overlay.addEventListener('keydown', onKey);
    overlay.addEventListener('focus', onFocus);
    overlay.addEventListener('blur', onBlur);
    const ro = new ResizeObserver(() => {
      cssW = box.clientWidth;
      cssH = box.clientHeight;
      schedule();
    });
    ro.observe(box);
    const offLive = livePlacement.subscribe(schedule);
    const offStudio = useStudio.subscribe((s, prev) => {
      if (s.document !== prev.document || s.selectedSceneId !== prev.selectedSceneId || s.catalogs.templates !== prev.catalogs.templates) schedule();
    });
    const offAssets = onSceneAssets(schedule);
    const offMedia = media.subscribe(schedule);
    schedule();
    return () => {
      cancelAnimationFrame(raf);
      ro.disconnect();
      offLive();
      offStudio();
      offAssets();
      offMedia();
      overlay.removeEventListener('pointerdown', onDown);
      overlay.removeEventListener('pointermove', onMove);
      overlay.removeEventListener('pointerup', onUp);
      overlay.removeEventListener('pointercancel', onCancel);
      overlay.removeEventListener('lostpointercapture', onCancel);
      overlay.removeEventListener('wheel', onWheel);
      overlay.removeEventListener('keydown', onKey);
      overlay.removeEventListener('focus', onFocus);
      overlay.removeEventListener('blur', onBlur);
    };
  }, []);

  return (
    <section className="panel stage" aria-labelledby="stage-heading">
      <div className="panel-head">
        <h2 id="stage-heading">
          Preview{sceneCount > 1 && <span className="muted small"> · scene {sceneIndex + 1} of {sceneCount}</span>}
        </h2>
        <div className="segmented" role="radiogroup" aria-label="Aspect ratio">
          {ASPECT_RATIOS.map((a: AspectRatio) => {
            const supported = !template || template.aspectRatios.includes(a);
            return (
              <button
                key={a}
                type="button"
                role="radio"
                aria-checked={a === aspectRatio}
                disabled={!supported}
                title={supported ? `${a} (${outputSize(a).width}×${outputSize(a).height})` : `${template?.name} does not support ${a}`}
                onClick={() => setAspectRatio(a)}
              >
                {a}
              </button>
            );
          })}
        </div>
      </div>
      <div className="stage-area">
        <div className="stage-frame" ref={frame} style={{ aspectRatio: `${out.width} / ${out.height}`, width: `min(100%, ${Math.round((STAGE_MAX_HEIGHT * out.width) / out.height)}px)` }}>
          <canvas ref={sceneRef} className="stage-scene" data-testid="stage-scene" aria-hidden="true" />
          <canvas
            ref={overlayRef}
            className="stage-overlay"
            tabIndex={presenter ? 0 : -1}
            role="application"
            aria-roledescription="presenter placement"
            aria-label="Presenter placement: drag to move, drag a corner or use the wheel to resize, arrow keys nudge (Shift for 10×), + and − resize, hold Alt to turn snapping off"
            data-testid="stage"
          />
        </div>
      </div>
      {presenter ? (
        <PlacementFields />
      ) : (
        <p className="muted small placement-off" data-testid="presenter-off">
          No presenter in this scene: the background and captions fill the frame.
        </p>
      )}
    </section>
  );
}

/**
 * The brand as the preview draws it: its logo once loaded (the layout leaves room only then), its
 * font asset once the page has it (the template's font until then).
 */
function previewBrand(brand: Brand | undefined): { brand?: SceneBrand; logo?: ImageLike } {
  if (!brand) return {};
  const logo = brand.logo ? media.picture({ assetId: brand.logo.assetId, fit: 'contain' })?.value : null;
  const fontReady = !brand.font || brandFont(brand.font) !== undefined || media.font(brand.font)?.value === true;
  const scene = sceneBrand(fontReady ? brand : { ...brand, font: undefined }, logo ? logo.width / logo.height : null);
  return { brand: scene, ...(logo ? { logo: logo.image } : {}) };
}
