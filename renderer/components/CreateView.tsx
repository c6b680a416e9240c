// The creator's main screen: drafts, script, voice, preview canvas, template, render.
import { DraftsSidebar } from './DraftsSidebar.js';
import { PresenterCanvas } from './PresenterCanvas.js';
import { RenderBar, renderCurrent } from './RenderBar.js';
import { ScriptEditor } from './ScriptEditor.js';
import { TemplatePicker } from './TemplatePicker.js';
import { VoicePicker } from './VoicePicker.js';
import { useSettings } from '../store/settings.js';
import { useCatalogs } from '../store/catalogs.js';

function OfflineBanner() {
  const online = useSettings((s) => s.online);
  const fromCache = useCatalogs((s) => s.fromCache);
  if (online && !fromCache) return null;
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
        </div>
      </div>
    </div>
  );
}
