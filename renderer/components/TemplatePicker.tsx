// Template grid: thumbnails drawn by the scene code, name, presenter, aspect ratios.
// A radio group: Tab enters it at the chosen template, arrow keys move and choose.
import { useRef } from 'react';
import type { Template } from '../../shared/contract/index.js';

import { ErrorNote } from './ErrorNote.js';
import { TemplateThumb } from './TemplateThumb.js';
import { useCatalogs, useEditor, useStudio, useUi } from '../store/index.js';

/** Switches template; an aspect ratio the new template lacks is changed with a notice and Undo. */
function chooseTemplate(t: Template) {
  const r = useStudio.getState().setTemplate(t);
  if (!r.aspectRatioFrom) return;
  const to = useStudio.getState().document.params.aspectRatio;
  useUi.getState().notify(
    {
      kind: 'info',
      text: `${t.name} has no ${r.aspectRatioFrom}: the video is now ${to}.`,
      action: { label: 'Undo', run: () => useStudio.getState().restoreTemplate(r.templateId, r.params) },
    },
    10_000,
  );
}

export function TemplatePicker() {
  const templates = useCatalogs((s) => s.templates);
  const error = useCatalogs((s) => s.error);
  const fromCache = useCatalogs((s) => s.fromCache);
  const selectedId = useStudio((s) => s.document.templateId);
  const fieldError = useEditor((s) => s.fieldErrors.templateId);
  const choose = chooseTemplate;
  const grid = useRef<HTMLDivElement>(null);

  const focusIndex = (i: number) => {
    const t = templates[(i + templates.length) % templates.length];
    if (!t) return;
    choose(t);
    grid.current?.querySelector<HTMLElement>(`[data-template="${t.id}"]`)?.focus();
  };
  const columns = () => {
    const items = grid.current?.querySelectorAll<HTMLElement>('[data-template]');
    if (!items || items.length < 2) return 1;
    const top = items[0]!.offsetTop;
    let n = 0;
    for (const el of items) if (el.offsetTop === top) n++;
    return Math.max(1, n);
  };
  const onKey = (e: React.KeyboardEvent, i: number) => {
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns(), ArrowUp: -columns() }[e.key];
    if (step !== undefined) {
      e.preventDefault();
      focusIndex(Math.min(templates.length - 1, Math.max(0, i + step)));
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      focusIndex(e.key === 'Home' ? 0 : templates.length - 1);
    }
  };
  const selectedIndex = Math.max(0, templates.findIndex((t) => t.id === selectedId));

  return (
    <section className="panel" aria-labelledby="template-heading">
      <div className="panel-head">
        <h2 id="template-heading">Template</h2>
        {fromCache && <span className="chip subtle">offline copy</span>}
      </div>
      <ErrorNote message={error} onRetry={() => void useCatalogs.getState().load()} />
      <ErrorNote message={fieldError ? `Template ${fieldError}.` : null} />
      <div className="template-grid" role="radiogroup" aria-labelledby="template-heading" ref={grid}>
        {templates.map((t, i) => (
          <TemplateCard
            key={t.id}
            template={t}
            selected={t.id === selectedId}
            tabbable={i === selectedIndex}
            onChoose={() => choose(t)}
            onKeyDown={(e) => onKey(e, i)}
          />
        ))}
      </div>
    </section>
  );
}

function TemplateCard(props: { template: Template; selected: boolean; tabbable: boolean; onChoose(): void; onKeyDown(e: React.KeyboardEvent): void }) {
  const { template: t, selected } = props;
  return (
    <div
      role="radio"
      aria-checked={selected}
      aria-label={`${t.name}, presenter ${t.presenter.name}, ${t.aspectRatios.join(', ')}`}
      tabIndex={props.tabbable ? 0 : -1}
      data-template={t.id}
      className={`template-card${selected ? ' selected' : ''}`}
      onClick={props.onChoose}
      onKeyDown={(e) => {
        if (e.key === ' ' || e.key === 'Enter') {
          e.preventDefault();
          props.onChoose();
        } else props.onKeyDown(e);
      }}
      title={t.description}
    >
      <TemplateThumb template={t} aspectRatio="16:9" width={150} />
      <div className="template-info">
        <span className="template-name">{t.name}</span>
        <span className="muted small">with {t.presenter.name}</span>
        <span className="ratios">
          {t.aspectRatios.map((a) => (
            <span key={a} className="ratio-tag">
              {a}
            </span>
          ))}
        </span>
      </div>
    </div>
  );
}
