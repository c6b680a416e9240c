// The creator's main screen: drafts, the selected scene's script and settings, voice, the preview
// canvas with the scene strip under it, template, render.
import { BrandKits } from './BrandKits.js';
import { DraftsSidebar } from './DraftsSidebar.js';
import { MediaLibrary } from './MediaLibrary.js';
import { MusicPicker } from './MusicPicker.js';
import { OutputSettings } from './OutputSettings.js';
import { PresenterCanvas } from './PresenterCanvas.js';
import { RenderBar, renderCurrent } from './RenderBar.js';
import { SceneInspector } from './SceneInspector.js';
import { SceneStrip } from './SceneStrip.js';
import { ScriptEditor } from './ScriptEditor.js';
import { PresenterPicker } from './PresenterPicker.js';
import { TemplatePicker } from './TemplatePicker.js';
import { VoicePicker } from './VoicePicker.js';

import { connectionLabel } from '../lib/connection.js';
import { useCatalogs, useSettings, useUi } from '../store/index.js';

function OfflineBanner() {
  const online = useSettings((s) => s.online);
  const problem = useSettings((s) => s.problem);
  const fromCache = useCatalogs((s) => s.fromCache);
  if (online && !fromCache) return null;
  if (!online && problem && connectionLabel(false, problem, null).settings) {
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
          <SceneInspector />
          <VoicePicker />
          <MusicPicker />
        </div>
        <div className="col col-stage">
          <PresenterCanvas />
          <SceneStrip />
          <RenderBar />
          <BrandKits />
          <OutputSettings />
          <TemplatePicker />
          <PresenterPicker />
          <MediaLibrary />
        </div>
      </div>
    </div>
  );
}
