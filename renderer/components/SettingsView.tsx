// Settings: render API profiles (add, select, test, remove), keys (set or clear, never shown),
// the local studio's status, the pronunciation dictionary, and the theme.
import { useEffect, useState } from 'react';
import type { KeyHeader, Profile } from '../../shared/bridge/index.js';
import { call, describeError, toBridgeError } from '../lib/bridge.js';

import { type Theme } from '../store/ui.js';
import { ErrorNote } from './ErrorNote.js';
import { PronunciationPanel } from './PronunciationPanel.js';
import { useCatalogs, useJobs, useSettings, useUi } from '../store/index.js';

export function SettingsView() {
  const { profiles, activeId, error, load } = useSettings();
  const web = useSettings((s) => s.info?.shell === 'web');
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="settings">
      <section className="panel" aria-labelledby="profiles-heading">
        <div className="panel-head">
          <h2 id="profiles-heading">Render APIs</h2>
        </div>
        <ErrorNote message={error} onRetry={() => void load()} />
        <ul className="profile-list">
          {profiles.map((p) => (
            <ProfileRow key={p.id} profile={p} active={p.id === activeId} />
          ))}
        </ul>
        {web ? <ServerConfigured /> : <AddProfile />}
      </section>
      <div className="settings-side">
        <StudioPanel />
        <PronunciationPanel />
        <ThemePanel />
      </div>
    </div>
  );
}

const switchTo = async (id: string) => {
  try {
    const s = await call('profiles.select', { id });
    useSettings.setState({ profiles: s.profiles, activeId: s.activeId, capabilities: null });
    void useSettings.getState().loadCapabilities();
    void useCatalogs.getState().load();
    void useJobs.getState().load();
  } catch (e) {
    useUi.getState().notify({ kind: 'error', text: `Could not switch: ${describeError(e)}` });
  }
};

function ProfileRow({ profile: p, active }: { profile: Profile; active: boolean }) {
  const key = useSettings((s) => s.keys[p.id]);
  const test = useSettings((s) => s.tests[p.id]);
  const [newKey, setNewKey] = useState('');
  const [keyError, setKeyError] = useState<string | null>(null);
  const setKey = async () => {
    setKeyError(null);
    try {
      const k = await call('key.set', { profileId: p.id, key: newKey });
      useSettings.setState({ keys: { ...useSettings.getState().keys, [p.id]: k } });
      setNewKey('');
    } catch (e) {
      setKeyError(describeError(e));
    }
  };
  const clearKey = async () => {
    setKeyError(null);
    try {
      const k = await call('key.clear', { profileId: p.id });
      useSettings.setState({ keys: { ...useSettings.getState().keys, [p.id]: k } });
    } catch (e) {
      setKeyError(describeError(e));
    }
  };
  const remove = async () => {
    try {
      const s = await call('profiles.remove', { id: p.id });
      useSettings.setState({ profiles: s.profiles, activeId: s.activeId });
    } catch (e) {
      useUi.getState().notify({ kind: 'error', text: `Could not remove ${p.name}: ${describeError(e)}` });
    }
  };
  return (
    <li className={`profile${active ? ' active' : ''}`} data-testid={`profile-${p.id}`}>
      <div className="profile-head">
        <label className="profile-pick">
          <input type="radio" name="active-profile" checked={active} onChange={() => void switchTo(p.id)} aria-label={`Use ${p.name}`} />
          <span className="profile-name">{p.name}</span>
          <span className="chip subtle">{p.kind === 'local' ? 'built-in studio' : p.kind === 'env' ? 'from environment' : 'remote'}</span>
        </label>
        <span className="muted small">{p.baseUrl ?? ''}</span>
      </div>
      <div className="profile-body">
        <span className="muted small" data-testid="key-status">
          Key: {key ? (key.set ? `set (${key.storage})` : 'not set') : 'unknown'}
        </span>
        {key?.warning && <span className="warn small">{key.warning}</span>}
        {p.kind === 'remote' && (
          <span className="key-form">
            <input
              className="input"
              type="password"
              autoComplete="off"
              placeholder={key?.set ? 'Replace key' : 'Paste key'}
              aria-label={`New key for ${p.name}`}
              value={newKey}
              onChange={(e) => setNewKey(e.target.value)}
              onKeyDown={(e) => e.key === 'Enter' && newKey && void setKey()}
            />
            <button type="button" className="btn small" disabled={!newKey.trim()} onClick={() => void setKey()}>
              Set key
            </button>
            {key?.set && (
              <button type="button" className="btn small ghost" onClick={() => void clearKey()}>
                Clear key
              </button>
            )}
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="btn small" onClick={() => void useSettings.getState().test(p.id)} disabled={!!test && 'pending' in test}>
          {test && 'pending' in test ? 'Testing…' : 'Test connection'}
        </button>
        {p.kind === 'remote' && (
          <button type="button" className="btn small danger ghost" onClick={() => void remove()}>
            Remove
          </button>
        )}
      </div>
      <ErrorNote message={keyError} />
      {test && !('pending' in test) && (
        <div className={`test-result ${test.ok ? 'ok' : 'bad'}`} role="status" data-testid="connection-test">
          {test.ok
            ? `Connected${test.version ? ` — version ${test.version}` : ''}. ${
                Object.entries(test.capabilities)
                  .filter(([, on]) => !on)
                  .map(([k]) => k)
                  .join(', ') || 'All features available'
              }${Object.values(test.capabilities).some((on) => !on) ? ' not offered by this API.' : '.'}`
            : `Not connected: ${test.error?.message ?? 'unknown error'}`}
        </div>
      )}
    </li>
  );
}

/** The web shell's connection is set where the server runs; a browser can only look at it. */
function ServerConfigured() {
  return (
    <div className="server-configured" data-testid="server-configured">
      <h3>Configured on the server</h3>
      <p className="muted small">
        In the web shell the render API is chosen where the web shell runs, not in the browser: it uses the render API named by{' '}
        <code>RENDER_API_BASE_URL</code> with the service key in <code>RENDER_API_KEY</code>, or else the local studio it starts itself. To change it,
        restart <code>npm run web</code> with other settings. The desktop app can add remote render APIs here.
      </p>
    </div>
  );
}

function AddProfile() {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [keyHeader, setKeyHeader] = useState<KeyHeader>('bearer');
  const [key, setKey] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setErrors({});
    try {
      const p = await call('profiles.save', { name, baseUrl: baseUrl.trim(), keyHeader, ...(key ? { key } : {}) });
      await useSettings.getState().load();
      setName('');
      setBaseUrl('');
      setKey('');
      void useSettings.getState().test(p.id);
    } catch (err) {
      const b = toBridgeError(err);
      setErrors(Object.fromEntries((b.details ?? []).map((d) => [d.path, d.message])));
      setError(describeError(b));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="add-profile" onSubmit={(e) => void save(e)} aria-labelledby="add-profile-heading">
      <h3 id="add-profile-heading">Add a remote render API</h3>
      <div className="form-grid">
        <label className="field">
          <span className="label">Name</span>
          <input className={`input${errors.name ? ' invalid' : ''}`} value={name} required maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="Team studio" />
        </label>
        <label className="field">
          <span className="label">Base URL</span>
          <input className={`input${errors.baseUrl ? ' invalid' : ''}`} value={baseUrl} required type="url" onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://render.example.com" />
        </label>
        <label className="field">
          <span className="label">Key header</span>
          <select className="input" value={keyHeader} onChange={(e) => setKeyHeader(e.target.value as KeyHeader)}>
            <option value="bearer">Authorization: Bearer</option>
            <option value="x-api-key">X-API-Key</option>
          </select>
        </label>
        <label className="field">
          <span className="label">Key</span>
          <input className="input" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} placeholder="Stored in the OS keychain" />
        </label>
      </div>
      <ErrorNote message={error} />
      <button type="submit" className="btn primary" disabled={busy}>
        {busy ? 'Saving…' : 'Add and test'}
      </button>
    </form>
  );
}

function StudioPanel() {
  const studio = useSettings((s) => s.studio);
  const info = useSettings((s) => s.info);
  const online = useSettings((s) => s.online);
  return (
    <section className="panel" aria-labelledby="studio-heading">
      <div className="panel-head">
        <h2 id="studio-heading">Local studio</h2>
      </div>
      {studio ? (
        <dl className="facts" data-testid="studio-status">
          <dt>State</dt>
          <dd>
            <span className={`chip studio ${studio.state}`}>{studio.state}</span>
          </dd>
          {studio.baseUrl && (
            <>
              <dt>Address</dt>
              <dd className="mono small">{studio.baseUrl}</dd>
            </>
          )}
          {studio.restarts > 0 && (
            <>
              <dt>Restarts</dt>
              <dd>{studio.restarts}</dd>
            </>
          )}
          {studio.error && (
            <>
              <dt>Problem</dt>
              <dd className="error-text">{studio.error}</dd>
            </>
          )}
          <dt>Render API</dt>
          <dd>{online ? 'reachable' : 'offline — new renders wait in the outbox'}</dd>
          {info && (
            <>
              <dt>App</dt>
              <dd className="small">
                {info.version} · {info.shell} · {info.platform}
              </dd>
            </>
          )}
        </dl>
      ) : (
        <p className="muted small">Status unknown.</p>
      )}
    </section>
  );
}

function ThemePanel() {
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  const options: [Theme, string][] = [
    ['light', 'Light'],
    ['dark', 'Dark'],
    ['system', 'Follow the system'],
  ];
  return (
    <section className="panel" aria-labelledby="theme-heading">
      <div className="panel-head">
        <h2 id="theme-heading">Appearance</h2>
      </div>
      <div className="segmented" role="radiogroup" aria-labelledby="theme-heading">
        {options.map(([t, label]) => (
          <button key={t} type="button" role="radio" aria-checked={theme === t} onClick={() => setTheme(t)}>
            {label}
          </button>
        ))}
      </div>
    </section>
  );
}
