// "New presenter from a photo": the portrait from the media library, its face found by
// MediaPipe Face Mesh in this page and shown as the mesh over the photo for the creator to
// accept; a photo that cannot become a presenter gets its reason in words. Accept makes the
// presenter on the render API (presenters.create), listed from then on with the others.
import { useEffect, useRef, useState } from 'react';
import type { Asset, Presenter } from '../../shared/contract/index.js';
import { MESH_TRIANGLES } from '../../shared/scene/face-mesh.js';
import { call } from '../lib/bridge.js';
import { findFace, type FaceCheck } from '../lib/face-mesh.js';
import { Dialog } from './Dialog.js';

const PREVIEW_SIDE = 420;

function drawMesh(canvas: HTMLCanvasElement, image: HTMLImageElement, landmarks: readonly (readonly number[])[] | null): void {
  const k = Math.min(PREVIEW_SIDE / image.naturalWidth, PREVIEW_SIDE / image.naturalHeight);
  canvas.width = Math.round(image.naturalWidth * k);
  canvas.height = Math.round(image.naturalHeight * k);
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

export function PhotoPresenterDialog({ asset, onClose, onMade }: { asset: Asset; onClose(): void; onMade?(p: Presenter): void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [check, setCheck] = useState<FaceCheck | null>(null);
  const [name, setName] = useState(asset.name.replace(/\.[a-z0-9]+$/i, ''));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<Presenter | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const { url } = await call('media.assetUrl', { assetId: asset.id, kind: 'content' });
      const image = new Image();
      image.src = url;
      await image.decode();
      if (!live) return;
      if (canvas.current) drawMesh(canvas.current, image, null);
      const found = await findFace(image);
      if (!live) return;
      setCheck(found);
      if (canvas.current) drawMesh(canvas.current, image, found.ok ? found.landmarks : null);
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
      const p = await call('presenters.create', { name: name.trim(), assetId: asset.id, landmarks: check.landmarks });
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
          {check?.ok && !made && (
            <>
              <p role="status">The face was found: the mesh shows what will move. Does it sit on the face?</p>
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
