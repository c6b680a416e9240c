// The render action and what became of the last submit (a job, or waiting in the outbox).

import { STATUS_LABEL } from '../store/jobs.js';

import { ErrorNote } from './ErrorNote.js';
import { useCatalogs, useEditor, useJobs, useUi } from '../store/index.js';
import { findVoice } from '../store/catalogs.js';
import { VoicePack } from './VoicePack.js';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
export const RENDER_SHORTCUT = isMac ? '⌘↵' : 'Ctrl+Enter';

const ALREADY_SENT = 'This version of the draft has already been sent to render.';

export async function renderCurrent(again = false): Promise<void> {
  const editor = useEditor.getState();
  if (!again && editor.isSent()) {
    const ui = useUi.getState();
    // One notice however often the shortcut is pressed, and none while the first is still on its way.
    if (!editor.submitting && !ui.notices.some((n) => n.text === ALREADY_SENT)) {
      ui.notify({ kind: 'info', text: ALREADY_SENT, action: { label: 'Render again', run: () => void renderCurrent(true) } });
    }
    return;
  }
  const ok = await editor.submit(again);
  if (!ok) return;
  const r = useEditor.getState().lastSubmit;
  const ui = useUi.getState();
  if (r?.job) useJobs.getState().applyEvents([{ type: 'job', profileId: '', job: r.job }]);
  if (r?.queued) ui.notify({ kind: 'info', text: 'The render API is offline: the job waits in the outbox and is sent when it is back.' });
  else ui.notify({ kind: 'success', text: 'Render started.', action: { label: 'View jobs', run: () => ui.setView('jobs') } });
}

export function RenderBar() {
  const submitting = useEditor((s) => s.submitting);
  const submitError = useEditor((s) => s.submitError);
  // A problem with the scenes as a whole (too many, too much text in all) has no field of its own.
  const scenesError = useEditor((s) => s.fieldErrors.scenes);
  const error = submitError && scenesError ? `${submitError} Scenes: ${scenesError}.` : submitError;
  const last = useEditor((s) => s.lastSubmit);
  const setView = useUi((s) => s.setView);
  // A render held for the chosen voice's download offers it here, with its progress.
  const waitsFor = useEditor((s) => s.voiceDownload);
  const voices = useCatalogs((s) => s.voices);
  const downloadVoice = findVoice(voices, waitsFor);
  return (
    <div className="render-bar">
      <div className="render-status" aria-live="polite">
        <ErrorNote message={error} />
        {downloadVoice && (
          <VoicePack
            voice={downloadVoice}
            onState={(state) => {
              if (state === 'installed') useEditor.getState().voiceInstalled(downloadVoice.id);
            }}
          />
        )}
        {!error && last?.job && (
          <span className="last-job small">
            <span className="muted">Last render:</span>
            <span className={`chip status ${last.job.status}`} data-testid="last-job-status">
              {STATUS_LABEL[last.job.status]}
              {last.job.status === 'rendering' ? ` ${Math.round(last.job.progress * 100)}%` : ''}
            </span>
            <button type="button" className="link" onClick={() => setView('jobs')}>
              Open jobs
            </button>
          </span>
        )}
        {!error && last?.queued && <span className="muted small">Last render is waiting to send (offline).</span>}
      </div>
      <button type="button" className="btn primary big" onClick={() => void renderCurrent()} disabled={submitting} aria-keyshortcuts="Control+Enter Meta+Enter">
        {submitting ? 'Sending…' : 'Render video'} <kbd>{RENDER_SHORTCUT}</kbd>
      </button>
    </div>
  );
}
