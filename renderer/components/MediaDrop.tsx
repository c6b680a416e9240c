// Files dropped from the desktop anywhere on the window go to the media library; dropped on a
// scene card (`data-scene-id`), each becomes that scene's background once it is stored. Shows
// a clear overlay while files are held over the window, and keeps the library's upload events
// connected. Renders nothing when the render API has no media library.
import { useEffect, useState } from 'react';
import { connectMedia, dropOnScene, useMedia } from '../store/media.js';
import { MediaKindIcon } from './MediaKindIcon.js';

const carriesFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');

/** The scene card under the pointer, if any. */
const cardUnder = (target: EventTarget | null): HTMLElement | null => (target instanceof Element ? target.closest<HTMLElement>('[data-scene-id]') : null);
const sceneUnder = (target: EventTarget | null): string | null => cardUnder(target)?.dataset.sceneId ?? null;

export function MediaDrop() {
  const supported = useMedia((s) => s.assetsSupported);
  const [over, setOver] = useState<{ sceneId: string | null } | null>(null);
  useEffect(() => connectMedia(), []);

  useEffect(() => {
    if (supported !== true) {
      // No library to take them: a file dropped anyway must not replace the app in the window.
      const refuse = (e: DragEvent) => {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        if (e.dataTransfer) e.dataTransfer.dropEffect = 'none';
      };
      window.addEventListener('dragover', refuse);
      window.addEventListener('drop', refuse);
      return () => {
        window.removeEventListener('dragover', refuse);
        window.removeEventListener('drop', refuse);
      };
    }
    // dragenter/dragleave fire for every child crossed: count them to know when the window is left.
    let depth = 0;
    // The card a drop would land on carries `data-drop-target` (styled by MediaLibrary.css).
    let marked: HTMLElement | null = null;
    const markCard = (card: HTMLElement | null) => {
      if (card === marked) return;
      marked?.removeAttribute('data-drop-target');
      card?.setAttribute('data-drop-target', '');
      marked = card;
    };
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth++;
      setOver({ sceneId: sceneUnder(e.target) });
    };
    const move = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault(); // allows the drop
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      markCard(cardUnder(e.target));
      const sceneId = sceneUnder(e.target);
      setOver((o) => (o?.sceneId === sceneId ? o : { sceneId }));
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) {
        markCard(null);
        setOver(null);
      }
    };
    const drop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault(); // the browser would open the file in place of the app
      depth = 0;
      markCard(null);
      setOver(null);
      const files = [...(e.dataTransfer?.files ?? [])];
      if (!files.length) return;
      const sceneId = sceneUnder(e.target);
      void (sceneId ? dropOnScene(sceneId, files) : useMedia.getState().uploadFiles(files));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', move);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', move);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      markCard(null);
    };
  }, [supported]);

  if (!over) return null;
  return (
    <div className={`drop-overlay${over.sceneId ? ' on-scene' : ''}`} data-testid="drop-overlay" aria-hidden="true">
      <div className="drop-card">
        <MediaKindIcon kind="upload" size={34} />
        <strong>{over.sceneId ? 'Drop to use as this scene’s background' : 'Drop files to add them to your media'}</strong>
        <span className="muted small">Pictures, clips, audio, PDF or PowerPoint slides</span>
      </div>
    </div>
  );
}
