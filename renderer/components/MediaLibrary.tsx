// The media library panel: the creator's pictures, clips, audio and documents, searched and
// filtered by kind; uploads with their progress; a file becomes the selected scene's background
// or, for a slide deck, a scene per page. Hidden when the render API has no media library.
import { useEffect, useMemo, useRef, useState } from 'react';
import { ASSET_KINDS, type AssetKind } from '../../shared/contract/index.js';
import { useCatalogs } from '../store/index.js';
import { UPLOAD_ACCEPT, useMedia } from '../store/media.js';
import { useSelectedSceneId } from '../store/scene-actions.js';
import { ErrorNote } from './ErrorNote.js';
import { Icon } from './Icon.js';
import { MediaAssetCard } from './MediaAssetCard.js';
import { MediaKindIcon } from './MediaKindIcon.js';
import { MediaUploads } from './MediaUploads.js';
import { KIND_LABELS } from './media-format.js';
import './MediaLibrary.css';

const SEARCH_PAUSE_MS = 250;

/** Add files: the OS dialog on the desktop, a file input in the browser. */
function AddFiles() {
  const shell = useMedia((s) => s.shell);
  const input = useRef<HTMLInputElement>(null);
  const { pickFiles, uploadFiles } = useMedia.getState();
  return (
    <>
      <button type="button" className="btn small primary" onClick={() => (shell === 'electron' ? void pickFiles() : input.current?.click())}>
        <Icon name="plus" size={14} /> Add files
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={UPLOAD_ACCEPT}
        hidden
        data-testid="media-file-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) void uploadFiles(files);
        }}
      />
    </>
  );
}

function KindFilter() {
  const kind = useMedia((s) => s.assetQuery.kind);
  const setQuery = useMedia((s) => s.setAssetQuery);
  const options: [AssetKind | null, string][] = [[null, 'All'], ...ASSET_KINDS.map((k): [AssetKind, string] => [k, KIND_LABELS[k].many])];
  return (
    <div className="segmented" role="radiogroup" aria-label="Kind of file">
      {options.map(([k, label]) => (
        <button key={label} type="button" role="radio" aria-checked={kind === k} onClick={() => void setQuery({ kind: k })}>
          {label}
        </button>
      ))}
    </div>
  );
}

function SearchBox() {
  const setQuery = useMedia((s) => s.setAssetQuery);
  const [text, setText] = useState(() => useMedia.getState().assetQuery.q);
  useEffect(() => {
    if (text === useMedia.getState().assetQuery.q) return;
    const t = setTimeout(() => void setQuery({ q: text }), SEARCH_PAUSE_MS);
    return () => clearTimeout(t);
  }, [text, setQuery]);
  return <input type="search" className="input" placeholder="Search media" aria-label="Search media" value={text} onChange={(e) => setText(e.target.value)} />;
}

function MediaNotice() {
  const notice = useMedia((s) => s.mediaNotice);
  const dismiss = useMedia((s) => s.dismissMediaNotice);
  if (!notice) return null;
  return (
    <div className={`media-notice ${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
      <span>{notice.text}</span>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={dismiss}>
        <Icon name="close" size={14} />
      </button>
    </div>
  );
}

export function MediaLibrary() {
  const supported = useMedia((s) => s.assetsSupported);
  const assets = useMedia((s) => s.assets);
  const loading = useMedia((s) => s.assetsLoading);
  const error = useMedia((s) => s.assetsError);
  const more = useMedia((s) => s.assetsCursor);
  const filtered = useMedia((s) => !!s.assetQuery.q.trim() || s.assetQuery.kind !== null);
  const sceneId = useSelectedSceneId();
  // A photo presenter's cut-out mask is part of the presenter, not a file the creator placed.
  const presenters = useCatalogs((s) => s.presenters);
  const masks = useMemo(() => new Set(presenters.flatMap((p) => (p.portrait?.maskAssetId ? [p.portrait.maskAssetId] : []))), [presenters]);
  const shown = assets.filter((a) => !masks.has(a.id));
  useEffect(() => {
    if (useMedia.getState().assetsSupported !== true) void useMedia.getState().loadAssets();
  }, []);
  if (supported === false) return null;
  const { loadAssets } = useMedia.getState();

  return (
    <section className="panel media-library" aria-labelledby="media-title" data-testid="media-library">
      <div className="panel-head">
        <h2 id="media-title">Media</h2>
        <AddFiles />
      </div>
      <div className="media-filters">
        <SearchBox />
        <KindFilter />
      </div>
      <MediaUploads />
      <MediaNotice />
      <ErrorNote message={error} onRetry={() => void loadAssets()} />
      {shown.length ? (
        <ul className="asset-grid" aria-label="Media files" aria-busy={loading}>
          {shown.map((a) => (
            <MediaAssetCard key={a.id} asset={a} sceneId={sceneId} />
          ))}
        </ul>
      ) : loading || error ? null : (
        <div className="media-empty">
          <MediaKindIcon kind="upload" size={26} />
          {filtered ? (
            <p>No files match.</p>
          ) : (
            <p>
              No files yet. Drop pictures, clips, audio or PDF slides anywhere on the window, or use <strong>Add files</strong>.
            </p>
          )}
        </div>
      )}
      {more && (
        <button type="button" className="btn small ghost media-more" disabled={loading} onClick={() => void loadAssets(true)}>
          {loading ? 'Loading…' : 'Show more'}
        </button>
      )}
    </section>
  );
}
