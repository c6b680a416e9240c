// "New presenter from a photo": the portrait from the media library, its face found by
// MediaPipe Face Mesh in this page and shown as the mesh over the photo for the creator to
// accept; a photo that cannot become a presenter gets its reason in words. Selfie Segmentation
// cuts the person out, and the creator sees both looks (the framed card, the cut-out over the
// chosen template) drawn by the engine's photo rig before accepting; where the person cannot be
// cut out, the card is still offered. Accept makes the presenter on the render API
// (presenters.create, the mask with it for the cut-out), listed from then on with the others.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Asset, Presenter } from '../../shared/contract/index.js';
import { MESH_TRIANGLES } from '../../shared/scene/face-mesh.js';
import type { PhotoLook } from '../../shared/scene/photo-rig.js';
import { loadAssetBitmap, photoRigOf } from '../canvas/photo-rigs.js';
import { drawScene } from '../canvas/scene.js';
import { call } from '../lib/bridge.js';
import { findFace, type FaceCheck } from '../lib/face-mesh.js';
import { cutOut } from '../lib/segmentation.js';
import { findTemplate } from '../store/catalogs.js';
import { useCatalogs, useStudio } from '../store/index.js';
import { Dialog } from './Dialog.js';

const PREVIEW_SIDE = 420;
/** A look's preview: the presenter in a square of the chosen template, as a close-up. */
const LOOK_SIDE = 150;
const LOOK_SCENE = 512;
const LOOK_PARAMS = { aspectRatio: '1:1' as const, avatar: { scale: 0.95, x: 0.5, y: 0.56 } };

/** The cut-out's state; a failure's reason goes to the console, the creator reads a plain sentence. */
type Cut = { state: 'working' } | { state: 'done'; png: Blob; bitmap: ImageBitmap } | { state: 'failed' };

function drawMesh(canvas: HTMLCanvasElement, image: ImageBitmap, landmarks: readonly (readonly number[])[] | null): void {
  const k = Math.min(PREVIEW_SIDE / image.width, PREVIEW_SIDE / image.height);
  canvas.width = Math.round(image.width * k);
  canvas.height = Math.round(image.height * k);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  if (!landmarks) return;
  ctx.strokeStyle = 'rgba(64, 224, 208, 0.75)';
  ctx.lineWidth = 0.6;
  ctx.beginPath();
  for (let t = 0; t < MESH_TRIANGLES.length; t += 3) {
    const [a, b, c] = [landmarks[MESH_TRIANGLES[t]!]!, landmarks[MESH_TRIANGLES[t + 1]!]!, landmarks[MESH_TRIANGLES[t + 2]!]!];
    ctx.moveTo(a[0]! * canvas.width, a[1]! * canvas.height);
    ctx.lineTo(b[0]! * canvas.width, b[1]! * canvas.height);
    ctx.lineTo(c[0]! * canvas.width, c[1]! * canvas.height);
    ctx.closePath();
  }
  ctx.stroke();
}

function base64Of(blob: Blob): Promise<string> {
  return new Promise((ok, fail) => {
    const r = new FileReader();
    r.onload = () => ok(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => fail(new Error('the cut-out mask could not be read'));
    r.readAsDataURL(blob);
  });
}

/** One look of the presenter-to-be, drawn over the chosen template by the scene code. */
function LookPreview({ portrait, mask, landmarks, label }: { portrait: ImageBitmap; mask: ImageBitmap | null; landmarks: [number, number, number][]; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const templates = useCatalogs((s) => s.templates);
  const templateId = useStudio((s) => s.document.templateId);
  const template = findTemplate(templates, templateId);
  const rig = useMemo(() => photoRigOf('look', portrait, mask, landmarks), [portrait, mask, landmarks]);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(LOOK_SIDE * dpr);
    canvas.height = Math.round(LOOK_SIDE * dpr);
    ctx.setTransform((LOOK_SIDE * dpr) / LOOK_SCENE, 0, 0, (LOOK_SIDE * dpr) / LOOK_SCENE, 0, 0);
    drawScene(ctx, { template, params: LOOK_PARAMS, width: LOOK_SCENE, height: LOOK_SCENE, rig });
  }, [rig, template]);
  return <canvas ref={ref} className="photo-look-canvas" style={{ width: LOOK_SIDE, height: LOOK_SIDE }} role="img" aria-label={label} />;
}

export function PhotoPresenterDialog({ asset, onClose, onMade }: { asset: Asset; onClose(): void; onMade?(p: Presenter): void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [portrait, setPortrait] = useState<ImageBitmap | null>(null);
  const [check, setCheck] = useState<FaceCheck | null>(null);
  const [cut, setCut] = useState<Cut>({ state: 'working' });
  const [look, setLook] = useState<PhotoLook>('card');
  const [name, setName] = useState(asset.name.replace(/\.[a-z0-9]+$/i, ''));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<Presenter | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const image = await loadAssetBitmap(asset.id);
      if (!live) return;
      setPortrait(image);
      if (canvas.current) drawMesh(canvas.current, image, null);
      const found = await findFace(image);
      if (!live) return;
      setCheck(found);
      if (canvas.current) drawMesh(canvas.current, image, found.ok ? found.landmarks : null);
      if (!found.ok) return;
      try {
        const png = await cutOut(image);
        const bitmap = await createImageBitmap(png);
        if (live) setCut({ state: 'done', png, bitmap });
      } catch (e) {
        // The one expected failure here: the person cannot be cut out. The card needs no mask.
        const reason = e instanceof Error ? e.message : String(e);
        console.warn(`The cut-out look is not offered: ${reason}`);
        if (live) setCut({ state: 'failed' });
      }
    })().catch((e: unknown) => live && setCheck({ ok: false, message: `The photo could not be read: ${(e as Error).message}` }));
    return () => {
      live = false;
    };
  }, [asset.id]);

  const accept = async () => {
    if (!check?.ok) return;
    setSaving(true);
    setError(null);
    try {
      const maskPng = look === 'cutout' && cut.state === 'done' ? await base64Of(cut.png) : undefined;
      const p = await call('presenters.create', { name: name.trim(), assetId: asset.id, landmarks: check.landmarks, ...(maskPng ? { maskPng } : {}) });
      useStudio.getState().catalogs.addPresenter(p);
      setMade(p);
      onMade?.(p);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog title="New presenter from a photo" onClose={onClose} wide>
      <div className="photo-presenter">
        <canvas ref={canvas} className="photo-presenter-canvas" aria-label={check?.ok ? 'The photo with the face mesh found' : 'The photo'} />
        <div className="photo-presenter-side">
          {!check && <p role="status">Finding the face…</p>}
          {check && !check.ok && <p role="alert" className="error-note">{check.message}</p>}
          {check?.ok && portrait && !made && (
            <>
              <p role="status">The face was found: the mesh shows what will move. Does it sit on the face?</p>
              <fieldset className="photo-looks">
                <legend>Look</legend>
                <label className={`photo-look${look === 'card' ? ' selected' : ''}`}>
                  <LookPreview portrait={portrait} mask={null} landmarks={check.landmarks} label="The framed card look" />
                  <span>
                    <input type="radio" name="photo-look" checked={look === 'card'} onChange={() => setLook('card')} /> Framed card
                  </span>
                </label>
                {cut.state !== 'failed' && (
                  <label className={`photo-look${look === 'cutout' ? ' selected' : ''}`}>
                    {cut.state === 'done' ? (
                      <LookPreview portrait={portrait} mask={cut.bitmap} landmarks={check.landmarks} label="The cut-out look" />
                    ) : (
                      <span className="photo-look-wait small muted">Cutting the person out…</span>
                    )}
                    <span>
                      <input type="radio" name="photo-look" checked={look === 'cutout'} disabled={cut.state !== 'done'} onChange={() => setLook('cutout')} /> Cut out
                    </span>
                  </label>
                )}
              </fieldset>
              {cut.state === 'failed' && (
                <p className="small muted" data-testid="cutout-failed">
                  The person could not be cut out of this photo, so only the framed card is offered. It works with any photo.
                </p>
              )}
              <label className="field">
                <span>Name</span>
                <input value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
              </label>
              {error && <p role="alert" className="error-note">{error}</p>}
              <button type="button" className="btn primary" disabled={saving || !name.trim()} onClick={() => void accept()}>
                {saving ? 'Making the presenter…' : 'Accept and make presenter'}
              </button>
            </>
          )}
          {made && (
            <p role="status" data-presenter-id={made.id}>
              “{made.name}” is ready: choose it in the presenter picker.
            </p>
          )}
        </div>
      </div>
    </Dialog>
  );
}
