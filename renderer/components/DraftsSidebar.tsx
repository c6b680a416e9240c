// Drafts: new, open, rename (double-click or F2), delete with undo (Delete key), search. The
// list is one Tab stop; arrow keys move between drafts.
import { useEffect, useRef, useState } from 'react';
import type { DraftSummary } from '../../shared/bridge/index.js';
import { call, describeError } from '../lib/bridge.js';
import { documentOf, draftInput, draftSummary, readDraft } from '../lib/drafts.js';
import { relativeTime } from '../lib/time.js';

import { ErrorNote } from './ErrorNote.js';
import { Icon } from './Icon.js';
import { leaveCurrentDraft, openDraft } from '../store/draftNav.js';
import { moveFocus, tabStop } from '../lib/roving.js';
import { useDrafts, useStudio, useUi } from '../store/index.js';

export function DraftsSidebar() {
  const { items, q, error, setQuery, load } = useDrafts();
  const currentId = useStudio((s) => s.draftId);
  const currentName = useStudio((s) => s.document.name);
  const [renaming, setRenaming] = useState<string | null>(null);
  // One Tab stop for the whole list; arrow keys move between drafts.
  const [focused, setFocused] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const stop = tabStop(
    items.map((d) => d.id),
    focused,
    currentId,
  );

  useEffect(() => {
    void load();
  }, [load]);

  const newDraft = async () => {
    if (!(await leaveCurrentDraft())) return;
    useStudio.getState().newDocument();
    document.getElementById('script-text')?.focus();
  };

  return (
    <aside className="drafts" aria-label="Drafts">
      <div className="drafts-head">
        <h2>Drafts</h2>
        <button type="button" className="btn small primary" onClick={() => void newDraft()}>
          + New
        </button>
      </div>
      <input
        type="search"
        className="input"
        placeholder="Search drafts"
        aria-label="Search drafts"
        value={q}
        onChange={(e) => setQuery(e.target.value)}
      />
      <ErrorNote message={error} onRetry={() => void load()} />
      <ul className="draft-list" role="list" ref={list} onKeyDown={(e) => moveFocus(e, list.current, '.draft-open')}>
        {currentId === null && (
          <li className="draft-item active">
            <span className="draft-name">{currentName || 'Untitled script'}</span>
            <span className="draft-meta">new, not saved yet</span>
          </li>
        )}
        {items.map((d) =>
          renaming === d.id ? (
            <RenameRow key={d.id} draft={d} onDone={() => setRenaming(null)} />
          ) : (
            <DraftRow key={d.id} draft={d} active={d.id === currentId} tabbable={d.id === stop} onFocus={() => setFocused(d.id)} onRename={() => setRenaming(d.id)} />
          ),
        )}
        {items.length === 0 && currentId !== null && <li className="muted small pad">{q ? 'No drafts match.' : 'No drafts yet.'}</li>}
      </ul>
    </aside>
  );
}

function DraftRow({ draft, active, tabbable, onFocus, onRename }: { draft: DraftSummary; active: boolean; tabbable: boolean; onFocus(): void; onRename(): void }) {
  const remove = async () => {
    try {
      const full = readDraft(await call('drafts.get', { id: draft.id }));
      await call('drafts.remove', { id: draft.id });
      useDrafts.getState().removeLocal(draft.id);
      if (useStudio.getState().draftId === draft.id) useStudio.getState().newDocument();
      useUi.getState().notify(
        {
          kind: 'info',
          text: `Deleted “${draft.name}”.`,
          action: {
            label: 'Undo',
            run: async () => {
              const back = readDraft(await call('drafts.save', draftInput(documentOf(full))));
              useDrafts.getState().upsertLocal(draftSummary(back));
            },
          },
        },
        8000,
      );
    } catch (e) {
      useUi.getState().notify({ kind: 'error', text: `Could not delete the draft: ${describeError(e)}` });
    }
  };
  return (
    <li className={`draft-item${active ? ' active' : ''}`}>
      <button
        type="button"
        className="draft-open"
        aria-current={active ? 'true' : undefined}
        aria-keyshortcuts="F2 Delete"
        tabIndex={tabbable ? 0 : -1}
        onFocus={onFocus}
        onClick={() => void openDraft(draft.id)}
        onDoubleClick={onRename}
        onKeyDown={(e) => {
          if (e.key === 'F2') onRename();
          if (e.key === 'Delete') void remove();
        }}
      >
        <span className="draft-name">{draft.name || 'Untitled script'}</span>
        <span className="draft-meta">
          {relativeTime(draft.updatedAt)}
          {draft.excerpt ? ` · ${draft.excerpt}` : ''}
        </span>
      </button>
      <div className="draft-actions">
        <button type="button" className="icon-btn" tabIndex={-1} aria-label={`Rename ${draft.name}`} title="Rename (F2)" onClick={onRename}>
          <Icon name="edit" size={14} />
        </button>
        <button type="button" className="icon-btn" tabIndex={-1} aria-label={`Delete ${draft.name}`} title="Delete (Delete key)" onClick={() => void remove()}>
          <Icon name="trash" size={14} />
        </button>
      </div>
    </li>
  );
}

function RenameRow({ draft, onDone }: { draft: DraftSummary; onDone(): void }) {
  const [name, setName] = useState(draft.name);
  const [error, setError] = useState<string | null>(null);
  const commit = async () => {
    const trimmed = name.trim();
    if (!trimmed || trimmed === draft.name) return onDone();
    if (useStudio.getState().draftId === draft.id) {
      useStudio.getState().update({ name: trimmed });
      return onDone();
    }
    try {
      const full = readDraft(await call('drafts.get', { id: draft.id }));
      const saved = readDraft(await call('drafts.save', draftInput({ ...documentOf(full), name: trimmed }, full.id)));
      useDrafts.getState().upsertLocal(draftSummary(saved));
      onDone();
    } catch (e) {
      setError(describeError(e));
    }
  };
  return (
    <li className="draft-item renaming">
      <input
        className="input"
        aria-label="Draft name"
        value={name}
        autoFocus
        maxLength={200}
        onChange={(e) => setName(e.target.value)}
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void commit();
          if (e.key === 'Escape') onDone();
        }}
      />
      <ErrorNote message={error} />
    </li>
  );
}
