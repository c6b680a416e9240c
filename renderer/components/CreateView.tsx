// The creator's main screen: drafts, script, voice, preview canvas, template, render.
import { DraftsSidebar } from './DraftsSidebar.js';
import { PresenterCanvas } from './PresenterCanvas.js';
import { RenderBar, renderCurrent } from './RenderBar.js';
import { ScriptEditor } from './ScriptEditor.js';
import { TemplatePicker } from './TemplatePicker.js';
import { VoicePicker } from './VoicePicker.js';

export function CreateView() {
  return (
    <div className="create">
      <DraftsSidebar />
      <div className="create-main">
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
