// The video's output settings (extension `output`): resolution, how captions come (burned in, as a
// file only, or none) and where burned captions sit. Shown only for a render API that offers them.
import type { CaptionMode, CaptionPosition, Resolution } from '../../shared/contract/index.js';
import { CAPTION_MODES, CAPTION_POSITIONS, OUTPUT_DEFAULTS, RESOLUTIONS, SHORT_SIDES, outputSize } from '../../shared/contract/index.js';
import { offers } from '../lib/capabilities.js';
import { useSettings, useStudio } from '../store/index.js';

const CAPTION_LABEL: Record<CaptionMode, string> = { burned: 'Burned in', file: 'File only', none: 'None' };
const CAPTION_TITLE: Record<CaptionMode, string> = {
  burned: 'Drawn into the video, and also given as a WebVTT file',
  file: 'Nothing drawn: WebVTT and SRT files for platforms that show their own captions',
  none: 'No captions at all',
};
const POSITION_LABEL: Record<CaptionPosition, string> = { auto: 'Automatic', bottom: 'Bottom', top: 'Top', beside: 'Beside the presenter' };

export function OutputSettings() {
  const caps = useSettings((s) => s.capabilities);
  const params = useStudio((s) => s.document.params);
  const setOutput = useStudio((s) => s.setOutput);
  if (!offers(caps, 'output')) return null;
  // Unset: the render API's own default (a team's server may default to 1080p).
  const resolution = params.resolution;
  const captions = params.captions ?? OUTPUT_DEFAULTS.captions;
  const position = params.captionPosition ?? OUTPUT_DEFAULTS.captionPosition;
  const sizeOf = (r: Resolution) => {
    const { width, height } = outputSize(params.aspectRatio, SHORT_SIDES[r]);
    return `${width}×${height}`;
  };
  return (
    <section className="panel output-settings" aria-labelledby="output-heading">
      <div className="panel-head">
        <h2 id="output-heading">Output</h2>
      </div>
      <div className="inspector-row">
        <span className="label" id="resolution-label">
          Resolution
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby="resolution-label">
          <button type="button" role="radio" aria-checked={resolution === undefined} title="The render server's setting" onClick={() => setOutput({ resolution: undefined })}>
            Server default
          </button>
          {RESOLUTIONS.map((r) => (
            <button key={r} type="button" role="radio" aria-checked={resolution === r} title={sizeOf(r)} onClick={() => setOutput({ resolution: r })}>
              {r}
            </button>
          ))}
        </div>
        {resolution && <span className="muted small">{sizeOf(resolution)}</span>}
      </div>
      <div className="inspector-row">
        <span className="label" id="captions-label">
          Captions
        </span>
        <div className="segmented" role="radiogroup" aria-labelledby="captions-label">
          {CAPTION_MODES.map((m) => (
            <button key={m} type="button" role="radio" aria-checked={captions === m} title={CAPTION_TITLE[m]} onClick={() => setOutput({ captions: m === OUTPUT_DEFAULTS.captions ? undefined : m })}>
              {CAPTION_LABEL[m]}
            </button>
          ))}
        </div>
      </div>
      <label className="inspector-row">
        <span className="label">Caption position</span>
        <select
          className="input"
          aria-label="Caption position"
          value={position}
          disabled={captions !== 'burned'}
          title={captions !== 'burned' ? 'Only burned-in captions have a place in the frame' : 'Automatic keeps the presenter\u2019s face clear'}
          onChange={(e) => {
            const p = e.target.value as CaptionPosition;
            setOutput({ captionPosition: p === OUTPUT_DEFAULTS.captionPosition ? undefined : p });
          }}
        >
          {CAPTION_POSITIONS.map((p) => (
            <option key={p} value={p}>
              {POSITION_LABEL[p]}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
