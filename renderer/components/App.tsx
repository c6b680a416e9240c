// The shell: top bar with the three screens, connection state, notices and downloads.
// Marks the root `data-app-state="loaded"` once catalogs, settings and the first draft are in.
import { useEffect, useState } from 'react';
import { call } from '../lib/bridge.js';
import { connectionLabel } from '../lib/connection.js';
import { bindHistoryKeys } from '../lib/history-keys.js';
import { sendPendingDeletes } from '../store/jobActions.js';
import { findTemplate } from '../store/catalogs.js';

import { readBackup } from '../store/backup.js';
import { readDraft } from '../lib/drafts.js';
import { connectEvents } from '../store/events.js';

import { resolvedTheme, type View } from '../store/ui.js';
import { CreateView } from './CreateView.js';
import { Downloads } from './Downloads.js';
import { JobsView } from './JobsView.js';
import { MediaDrop } from './MediaDrop.js';
import { Notices } from './Notices.js';
import { renderCurrent } from './RenderBar.js';
import { SettingsView } from './SettingsView.js';
import { redo, undo, useCatalogs, useDrafts, useJobs, useSettings, useStudio, useUi } from '../store/index.js';

let booting: Promise<void> | null = null;
/** Once per page, even under StrictMode's double effects. */
const bootOnce = () => (booting ??= boot());

async function boot(): Promise<void> {
  await Promise.all([useCatalogs.getState().load(), useSettings.getState().load(), useDrafts.getState().load(), useJobs.getState().loadOutbox()]);
  // What the render API offers decides whether scenes and media show; not waited for.
  void useSettings.getState().loadCapabilities();
  const backup = readBackup();
  const studio = useStudio.getState();
  if (backup) {
    // Edits that never reached drafts.save (crash, closed window): bring them back and save.
    const { id, ...doc } = backup;
    studio.loadDocument(doc, id);
    studio.update({}); // an edit: saved like any other
    return;
  }
  const latest = useDrafts.getState().items[0];
  if (latest) {
    try {
      const d = readDraft(await call('drafts.get', { id: latest.id }));
      studio.loadDocument(d, d.id);
      if (findTemplate(useCatalogs.getState().templates, useStudio.getState().document.templateId)) return;
    } catch (e) {
      console.warn(`the last draft could not be opened (${String(e)}); a new one is started`);
    }
  }
  studio.newDocument();
}

function useTheme() {
  const theme = useUi((s) => s.theme);
  useEffect(() => {
    const apply = () => {
      document.documentElement.dataset.theme = resolvedTheme(theme);
    };
    apply();
    const mq = window.matchMedia?.('(prefers-color-scheme: dark)');
    mq?.addEventListener('change', apply);
    return () => mq?.removeEventListener('change', apply);
  }, [theme]);
}

/** The first Tab stop: straight to the script, on the Create screen. */
function skipToEditor(e: React.MouseEvent) {
  e.preventDefault();
  useUi.getState().setView('create');
  const focus = () => document.getElementById('script-text')?.focus();
  if (document.getElementById('script-text')) focus();
  else requestAnimationFrame(() => requestAnimationFrame(focus));
}

const VIEWS: [View, string][] = [
  ['create', 'Create'],
  ['jobs', 'Jobs'],
  ['settings', 'Settings'],
];

export function App() {
  const view = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
  const [loaded, setLoaded] = useState(false);
  useTheme();
  useEffect(() => {
    // Deletions still inside their Undo window are sent when the window closes.
    window.addEventListener('pagehide', sendPendingDeletes);
    return () => window.removeEventListener('pagehide', sendPendingDeletes);
  }, []);
  useEffect(() => {
    const off = connectEvents();
    void bootOnce().finally(() => setLoaded(true));
    return off;
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && useUi.getState().view === 'create' && !(e.target instanceof HTMLTextAreaElement)) {
        e.preventDefault();
        void renderCurrent();
      }
    };
    window.addEventListener('keydown', onKey);
    const offHistory = bindHistoryKeys((k) => (k === 'undo' ? undo() : redo()), () => useUi.getState().view === 'create');
    return () => {
      window.removeEventListener('keydown', onKey);
      offHistory();
    };
  }, []);

  return (
    <div className="app" data-app-state={loaded ? 'loaded' : 'loading'}>
      <a className="skip-link" href="#script-text" onClick={skipToEditor}>
        Skip to editor
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true">
            ◉
          </span>
          Presenter Studio
        </div>
        <nav className="tabs" aria-label="Screens">
          {VIEWS.map(([v, label]) => (
            <button key={v} type="button" className={`tab${view === v ? ' on' : ''}`} aria-current={view === v ? 'page' : undefined} onClick={() => setView(v)}>
              {label}
              {v === 'jobs' && <ActiveBadge />}
            </button>
          ))}
        </nav>
        <ConnectionPill />
      </header>
      <main className="main">
        {!loaded ? <div className="loading">Loading…</div> : view === 'create' ? <CreateView /> : view === 'jobs' ? <JobsView /> : <SettingsView />}
      </main>
      <Notices />
      <Downloads />
      <MediaDrop />
    </div>
  );
}

function ActiveBadge() {
  const n = useJobs((s) => s.counts.queued + s.counts.rendering + s.outbox.length);
  return n > 0 ? (
    <span className="badge" aria-label={`${n} active`}>
      {n > 999 ? '999+' : n}
    </span>
  ) : null;
}

function ConnectionPill() {
  const online = useSettings((s) => s.online);
  const problem = useSettings((s) => s.problem);
  const studio = useSettings((s) => s.studio);
  const profile = useSettings((s) => s.profiles.find((p) => p.id === s.activeId));
  const label = connectionLabel(online, problem, profile?.kind === 'local' ? studio : null);
  return (
    <button
      type="button"
      className={`conn ${label.tone}`}
      onClick={() => useUi.getState().setView('settings')}
      title={profile?.kind === 'local' && studio?.error ? `${studio.error} — open Settings` : problem && !online ? `${problem.message} — open Settings` : 'Render API settings'}
      data-testid="connection"
    >
      <span className="dot" aria-hidden="true" />
      {label.text}
      {profile ? <span className="muted"> · {profile.name}</span> : null}
      {label.settings ? <span className="conn-fix">Fix in Settings</span> : null}
    </button>
  );
}
