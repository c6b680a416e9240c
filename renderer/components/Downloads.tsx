// Downloads in progress (bottom left), with cancel and where the file went.
import { Icon } from './Icon.js';
import { call } from '../lib/bridge.js';
import type { BridgeError } from '../../shared/bridge/index.js';
import { useDownloads } from '../store/index.js';

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

/**
 * A download that ended meanwhile answers not_found: its own last event already says how it
 * ended. Any other refusal is shown on its row.
 */
const cancel = (downloadId: string) =>
  void call('download.cancel', { downloadId }).catch((e: BridgeError) => {
    if (e.code !== 'not_found') useDownloads.getState().fail(downloadId, e);
  });

export function Downloads() {
  const items = useDownloads((s) => s.items);
  const remove = useDownloads((s) => s.remove);
  if (!items.length) return null;
  return (
    <div className="downloads" aria-label="Downloads" role="region">
      {items.map((d) => {
        const pct = d.totalBytes ? Math.round((d.receivedBytes / d.totalBytes) * 100) : null;
        return (
          <div key={d.id} className="download" data-testid="download">
            <div className="download-line">
              <span className="download-label">{d.label}</span>
              {d.done || d.error ? (
                <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => remove(d.id)}>
                  <Icon name="close" size={14} />
                </button>
              ) : (
                <button type="button" className="link" onClick={() => cancel(d.id)}>
                  Cancel
                </button>
              )}
            </div>
            {d.error ? (
              <span className="error-text small">{d.error.message}</span>
            ) : d.done ? (
              <span className="muted small">Saved{d.path ? ` to ${d.path}` : ''}</span>
            ) : (
              <>
                <span className="progress" role="progressbar" aria-label="Download progress" aria-valuenow={pct ?? undefined} aria-valuemin={0} aria-valuemax={100}>
                  <span style={{ transform: `scaleX(${pct === null ? 0.3 : pct / 100})` }} className={pct === null ? 'indeterminate' : ''} />
                </span>
                <span className="muted small">
                  {mb(d.receivedBytes)}
                  {d.totalBytes ? ` of ${mb(d.totalBytes)}` : ''}
                </span>
              </>
            )}
          </div>
        );
      })}
    </div>
  );
}
