// Files on their way into the library: a bar per file with its name, percent and Cancel; a
// refused file says why and is dismissed by hand (nothing of it was kept).
import { describeError } from '../lib/bridge.js';
import { useMedia, type UploadRow } from '../store/media.js';
import { formatBytes } from './media-format.js';
import { Icon } from './Icon.js';

const percentOf = (u: UploadRow) => (u.sizeBytes ? Math.min(100, Math.floor((u.sentBytes / u.sizeBytes) * 100)) : 0);

function UploadItem({ upload }: { upload: UploadRow }) {
  const cancel = useMedia((s) => s.cancelUpload);
  const dismiss = useMedia((s) => s.dismissUpload);
  if (upload.state === 'failed') {
    return (
      <li className="upload failed" data-upload-state="failed">
        <div className="upload-line">
          <span className="upload-name" title={upload.name}>{upload.name}</span>
          <button type="button" className="icon-btn" aria-label={`Dismiss ${upload.name}`} onClick={() => dismiss(upload.uploadId)}>
            <Icon name="close" size={14} />
          </button>
        </div>
        <p className="upload-error" role="alert">
          Not added: {upload.error ? describeError(upload.error) : 'the upload failed.'}
        </p>
      </li>
    );
  }
  const converting = upload.state === 'converting';
  const pct = percentOf(upload);
  return (
    <li className="upload" data-upload-state={upload.state}>
      <div className="upload-line">
        <span className="upload-name" title={upload.name}>{upload.name}</span>
        <span className="upload-pct muted small">
          {converting ? 'Converting…' : `${pct} %`}
          {upload.sizeBytes ? <span className="upload-size"> · {formatBytes(upload.sizeBytes)}</span> : null}
        </span>
        <button type="button" className="btn ghost small" aria-label={`Cancel upload of ${upload.name}`} onClick={() => void cancel(upload.uploadId)}>
          Cancel
        </button>
      </div>
      <span
        className={`progress${converting ? ' busy' : ''}`}
        role="progressbar"
        aria-label={`Uploading ${upload.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        {...(converting ? {} : { 'aria-valuenow': pct })}
      >
        <span style={{ transform: `scaleX(${converting ? 1 : pct / 100})` }} />
      </span>
    </li>
  );
}

export function MediaUploads() {
  const uploads = useMedia((s) => s.uploads);
  if (!uploads.length) return null;
  return (
    <ul className="uploads" aria-label="Uploads">
      {uploads.map((u) => (
        <UploadItem key={u.uploadId} upload={u} />
      ))}
    </ul>
  );
}
