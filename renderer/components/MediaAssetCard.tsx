// One file of the library: its thumbnail, name and facts, and what it can become in the video.
import { useEffect, useState } from 'react';
import type { Asset } from '../../shared/contract/index.js';
import { call } from '../lib/bridge.js';
import { BACKGROUND_KINDS, useMedia } from '../store/media.js';
import { assetFacts, KIND_LABELS } from './media-format.js';
import { Icon } from './Icon.js';
import { MediaKindIcon } from './MediaKindIcon.js';
import { PhotoPresenterDialog } from './PhotoPresenterDialog.js';

function AssetThumb({ asset }: { asset: Asset }) {
  const [url, setUrl] = useState<string | null>(null);
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    if (asset.kind === 'audio') return;
    let live = true;
    call('media.assetUrl', { assetId: asset.id, kind: 'thumbnail' }).then(
      (r) => live && setUrl(r.url),
      () => live && setBroken(true), // the kind's glyph stands in
    );
    return () => {
      live = false;
    };
  }, [asset.id, asset.kind]);
  return (
    <div className={`asset-thumb kind-${asset.kind}`}>
      {url && !broken ? <img src={url} alt="" loading="lazy" draggable={false} onError={() => setBroken(true)} /> : <MediaKindIcon kind={asset.kind} size={28} />}
      {asset.kind !== 'image' && <span className="asset-kind-tag">{KIND_LABELS[asset.kind].one}</span>}
    </div>
  );
}

export function MediaAssetCard({ asset, sceneId }: { asset: Asset; sceneId: string | null }) {
  const selected = useMedia((s) => s.selectedAssetId === asset.id);
  const importing = useMedia((s) => s.importingAssetId);
  const { selectAsset, deleteAsset, applyAsBackground, makeScenesFromPages } = useMedia.getState();
  const [confirming, setConfirming] = useState(false);
  const [presenting, setPresenting] = useState(false);
  const facts = assetFacts(asset);
  const canBackground = BACKGROUND_KINDS.includes(asset.kind);

  return (
    <li className={`asset-card${selected ? ' selected' : ''}`} data-asset-id={asset.id} data-kind={asset.kind} aria-label={asset.name}>
      <button
        type="button"
        className="asset-select"
        aria-pressed={selected}
        aria-describedby={`facts-${asset.id}`}
        aria-keyshortcuts="Delete" onClick={() => selectAsset(selected ? null : asset.id)}
        onKeyDown={(e) => {
          if (e.key === 'Delete') {
            e.preventDefault();
            e.stopPropagation(); // the file's Delete, not the selected scene's
            setConfirming(true);
          }
        }}
      >
        <AssetThumb asset={asset} />
        <span className="asset-name" title={asset.name}>{asset.name}</span>
        <span className="asset-facts" id={`facts-${asset.id}`}>{facts}</span>
      </button>
      {confirming ? (
        <div
          className="asset-actions confirm"
          role="group"
          aria-label={`Delete ${asset.name}?`}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              setConfirming(false);
            }
          }}
        >
          <span className="small">Delete this file?</span>
          <button
            type="button"
            className="btn small danger"
            onClick={() => {
              setConfirming(false);
              void deleteAsset(asset.id);
            }}
          >
            Delete
          </button>
          {/* Focus lands on the harmless choice: Enter twice does not delete. */}
          <button type="button" className="btn small ghost" autoFocus onClick={() => setConfirming(false)}>
            Keep
          </button>
        </div>
      ) : canBackground ? (
        <div className="asset-actions">
          <button
            type="button"
            className="btn small"
            disabled={!sceneId}
            title={sceneId ? 'Show this behind the selected scene' : 'Select a scene first'}
            onClick={() => sceneId && applyAsBackground(asset, sceneId)}
          >
            Use as background
          </button>
          {asset.kind === 'document' && (
            <button
              type="button"
              className="btn small"
              disabled={!!importing}
              aria-label="Make scenes from pages"
              title="One scene per page, the page as its background and its text as the narration"
              onClick={() => void makeScenesFromPages(asset)}
            >
              {importing === asset.id ? 'Making scenes…' : 'Scenes from pages'}
            </button>
          )}
          {asset.kind === 'image' && (
            <button type="button" className="btn small" title="A presenter that speaks with the face in this photo" onClick={() => setPresenting(true)}>
              Make presenter
            </button>
          )}
        </div>
      ) : null}
      {presenting && <PhotoPresenterDialog asset={asset} onClose={() => setPresenting(false)} />}
      {!confirming && (
        <button type="button" className="icon-btn danger asset-delete" aria-label={`Delete ${asset.name}`} title="Delete" onClick={() => setConfirming(true)}>
          <Icon name="trash" size={15} />
        </button>
      )}
    </li>
  );
}
