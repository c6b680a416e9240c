// WYSIWYG presenter placement. Pointer, wheel and drag work writes to the transient
// `livePlacement` store; a subscription redraws at most once per animation frame; the editor
// store (and so React) only hears the final value when the gesture ends.
import { useEffect, useRef } from 'react';
import { ASPECT_RATIOS, type Avatar, type AspectRatio, outputSize } from '../../shared/contract/index.js';
import { drawPreview, HANDLE_PX } from '../canvas/drawPreview.js';
import { onSceneAssets, presenterBox, presenterCorners } from '../canvas/scene.js';
import { clampAvatar, nudge, scaleFromCorner, snapCentre, wheelScale, type CornerOffset, type NudgeKey } from '../lib/placement.js';
import { findTemplate, useCatalogs } from '../store/catalogs.js';
import { useEditor } from '../store/editor.js';
import { commitLiveLater, livePlacement } from '../store/placement.js';
import { PlacementFields } from './PlacementFields.js';

const STAGE_MAX_HEIGHT = 440;

type Gesture =
  | { kind: 'move'; pointerId: number; dx: number; dy: number }
  | { kind: 'scale'; pointerId: number; corner: CornerOffset }
  | null;

export function PresenterCanvas() {
  const frame = useRef<HTMLDivElement>(null);
  const sceneRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const aspectRatio = useEditor((s) => s.draft.params.aspectRatio);
  const templateId = useEditor((s) => s.draft.templateId);
  const templates = useCatalogs((s) => s.templates);
  const template = findTemplate(templates, templateId);
  const setAspectRatio = useEditor((s) => s.setAspectRatio);
  const out = outputSize(aspectRatio);

  useEffect(() => {
    const box = frame.current;
    const scene = sceneRef.current;
    const overlay = overlayRef.current;
    if (!box || !scene || !overlay) return;
    let cssW = box.clientWidth;
    let cssH = box.clientHeight;
    let raf = 0;
    let gesture: Gesture = null;
    let focused = false;

    const current = () => {
      const ed = useEditor.getState();
      const live = livePlacement.getState();
      const params = live.avatar ? { ...ed.draft.params, avatar: live.avatar } : ed.draft.params;
      return { ed, live, params, template: findTemplate(useCatalogs.getState().templates, ed.draft.templateId) };
    };
    const draw = () => {
      raf = 0;
      const { ed, live, params, template } = current();
      const caption = ed.draft.text;
      const accent = getComputedStyle(box).getPropertyValue('--accent').trim() || '#6c5ce7';
      drawPreview(scene, overlay, cssW, cssH, { template, params, caption, guidesX: live.guidesX, guidesY: live.guidesY, active: gesture !== null, focused }, accent);
      // What the canvas shows, for people using assistive tech and for tests.
      scene.dataset.x = String(params.avatar.x);
      scene.dataset.y = String(params.avatar.y);
      scene.dataset.scale = String(params.avatar.scale);
      scene.dataset.aspectRatio = params.aspectRatio;
    };
    const schedule = () => {
      if (!raf) raf = requestAnimationFrame(draw);
    };

    const toFrame = (e: { clientX: number; clientY: number }) => {
      const r = overlay.getBoundingClientRect();
      const { params } = current();
      const o = outputSize(params.aspectRatio);
      return { x: ((e.clientX - r.left) / r.width) * o.width, y: ((e.clientY - r.top) / r.height) * o.height, o, params, k: r.width / o.width };
    };
    const hit = (e: PointerEvent): { kind: 'move' } | { kind: 'scale'; corner: CornerOffset } | null => {
      const { x, y, o, params, k } = toFrame(e);
      const template = current().template;
      const b = presenterBox(template, params, o.width, o.height);
      const tol = HANDLE_PX / k;
      const nearLeft = Math.abs(x - b.x) <= tol;
      const nearRight = Math.abs(x - b.x - b.width) <= tol;
      const nearTop = Math.abs(y - b.y) <= tol;
      const nearBottom = Math.abs(y - b.y - b.height) <= tol;
      if ((nearLeft || nearRight) && (nearTop || nearBottom)) {
        const c = presenterCorners(template);
        return { kind: 'scale', corner: { fx: nearLeft ? c.left : c.right, fy: nearTop ? c.top : c.bottom } };
      }
      if (x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height) return { kind: 'move' };
      return null;
    };
    const start = (avatar: Avatar) => {
      if (!livePlacement.getState().avatar) livePlacement.setState({ avatar });
    };
    const commit = () => {
      const a = livePlacement.getState().avatar;
      if (a) useEditor.getState().setAvatar(a); // clears the live value too
      schedule();
    };

    const onDown = (e: PointerEvent) => {
      if (e.button !== 0) return;
      const h = hit(e);
      overlay.focus();
      if (!h) return;
      e.preventDefault();
      try {
        overlay.setPointerCapture(e.pointerId);
      } catch {
        /* synthetic or already-released pointers cannot be captured; the drag still works inside the canvas */
      }
      const { x, y, o, params } = toFrame(e);
      start(params.avatar);
      gesture =
        h.kind === 'move'
          ? { kind: 'move', pointerId: e.pointerId, dx: params.avatar.x * o.width - x, dy: params.avatar.y * o.height - y }
          : { kind: 'scale', pointerId: e.pointerId, corner: h.corner };
      schedule();
    };
    const onMove = (e: PointerEvent) => {
      if (!gesture || e.pointerId !== gesture.pointerId) {
        if (!gesture) {
          const h = hit(e);
          overlay.style.cursor = h?.kind === 'scale' ? (h.corner.fx * h.corner.fy > 0 ? 'nwse-resize' : 'nesw-resize') : h ? 'grab' : 'default';
        }
        return;
      }
      const { x, y, o, params } = toFrame(e);
      const a = params.avatar;
      if (gesture.kind === 'move') {
        overlay.style.cursor = 'grabbing';
        const raw = { x: (x + gesture.dx) / o.width, y: (y + gesture.dy) / o.height };
        const snap = e.altKey ? { ...raw, guidesX: [], guidesY: [] } : snapCentre(raw.x, raw.y, cssW, cssH);
        livePlacement.setState({ avatar: clampAvatar({ ...a, x: snap.x, y: snap.y }), guidesX: snap.guidesX, guidesY: snap.guidesY });
      } else {
        livePlacement.setState({ avatar: scaleFromCorner(a, { x, y }, o, gesture.corner), guidesX: [], guidesY: [] });
      }
    };
    const onUp = (e: PointerEvent) => {
      if (!gesture || e.pointerId !== gesture.pointerId) return;
      gesture = null;
      overlay.style.cursor = 'grab';
      commit();
    };
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { params } = current();
      livePlacement.setState({ avatar: wheelScale(params.avatar, e.deltaY) });
      commitLiveLater(commit, 250);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key.startsWith('Arrow')) {
        e.preventDefault();
        useEditor.getState().setAvatar(nudge(current().params.avatar, e.key as NudgeKey, e.shiftKey));
      } else if (e.key === '+' || e.key === '=' || e.key === '-') {
        e.preventDefault();
        const a = current().params.avatar;
        useEditor.getState().setAvatar(clampAvatar({ ...a, scale: a.scale + (e.key === '-' ? -0.02 : 0.02) * (e.shiftKey ? 5 : 1) }));
      }
    };
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
    overlay.addEventListener('pointercancel', onUp);
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
    const offEditor = useEditor.subscribe((s, prev) => {
      if (s.draft.params !== prev.draft.params || s.draft.templateId !== prev.draft.templateId || s.draft.text !== prev.draft.text) schedule();
    });
    const offCatalog = useCatalogs.subscribe(schedule);
    const offAssets = onSceneAssets(schedule);
    schedule();
    return () => {
      cancelAnimationFrame(raf);
      ro.disconnect();
      offLive();
      offEditor();
      offCatalog();
      offAssets();
      overlay.removeEventListener('pointerdown', onDown);
      overlay.removeEventListener('pointermove', onMove);
      overlay.removeEventListener('pointerup', onUp);
      overlay.removeEventListener('pointercancel', onUp);
      overlay.removeEventListener('wheel', onWheel);
      overlay.removeEventListener('keydown', onKey);
      overlay.removeEventListener('focus', onFocus);
      overlay.removeEventListener('blur', onBlur);
    };
  }, []);

  return (
    <section className="panel stage" aria-labelledby="stage-heading">
      <div className="panel-head">
        <h2 id="stage-heading">Preview</h2>
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
            tabIndex={0}
            role="application"
            aria-roledescription="presenter placement"
            aria-label="Presenter placement: drag to move, drag a corner or use the wheel to resize, arrow keys nudge (Shift for 10×), + and − resize, hold Alt to turn snapping off"
            data-testid="stage"
          />
        </div>
      </div>
      <PlacementFields />
    </section>
  );
}
