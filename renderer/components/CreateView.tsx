// The creator's main screen: drafts, script, voice, preview canvas, template, render.
import { DraftsSidebar } from './DraftsSidebar.js';
import { MediaLibrary } from './MediaLibrary.js';
import { PresenterCanvas } from './PresenterCanvas.js';
import { RenderBar, renderCurrent } from './RenderBar.js';
import { ScriptEditor } from './ScriptEditor.js';
import { TemplatePicker } from './TemplatePicker.js';
import { VoicePicker } from './VoicePicker.js';
import { useSettings } from '../store/settings.js';
import { useCatalogs } from '../store/catalogs.js';
import { useUi } from '../store/ui.js';
import { connectionLabel } from '../lib/connection.js';

function OfflineBanner() {
  const online = useSettings((s) => s.online);
  const problem = useSettings((s) => s.problem);
  const fromCache = useCatalogs((s) => s.fromCache);
  if (online && !fromCache) return null;
  if (!online && problem && connectionLabel(false, problem, false).settings) {
    return (
      <div className="banner" role="status">
        The render API refuses this connection ({problem.message}). Drafts keep saving on this computer.{' '}
        <button type="button" className="link" onClick={() => useUi.getState().setView('settings')}>
          Open Settings
        </button>
      </div>
    );
  }
  return (
    <div className="banner" role="status">
      The render API cannot be reached. Drafts keep saving on this computer; renders wait in the outbox and are sent when it is back.
    </div>
  );
}

export function CreateView() {
  return (
    <div className="create">
      <DraftsSidebar />
      <div className="create-main">
        <OfflineBanner />
        <div className="col col-script">
          <ScriptEditor onRender={() => void renderCurrent()} />
          <VoicePicker />
        </div>
        <div className="col col-stage">
          <PresenterCanvas />
          <RenderBar />
          <TemplatePicker />
          <MediaLibrary />
        </div>
      </div>
    </div>
  );
}
