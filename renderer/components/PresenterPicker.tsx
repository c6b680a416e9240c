// Who speaks: the render API's presenters (the built-in cast and the creator's own), each drawn
// over the chosen template, and the template's own suggestion. A radio group like the template
// grid: Tab enters at the chosen one, arrow keys move and choose. Shown only to an API whose
// health lists the `presenters` extension (elsewhere each template's presenter speaks).
import { useRef } from 'react';
import { PresenterThumb } from './PresenterThumb.js';
import { useCatalogs, useEditor, useStudio } from '../store/index.js';
import { findTemplate } from '../store/catalogs.js';
import { presenterFacts } from '../lib/presenters.js';
import { offers } from '../lib/capabilities.js';

export function PresenterPicker() {
  const presenters = useCatalogs((s) => s.presenters);
  const templates = useCatalogs((s) => s.templates);
  const offered = useStudio((s) => offers(s.settings.capabilities, 'presenters'));
  const templateId = useStudio((s) => s.document.templateId);
  const chosen = useStudio((s) => s.document.presenterId);
  const fieldError = useEditor((s) => s.fieldErrors.presenterId);
  const grid = useRef<HTMLDivElement>(null);
  const template = findTemplate(templates, templateId);
  if (!offered || !presenters.length) return null;
  const suggested = template ? presenterFacts(presenters, template.presenter.id) : null;
  // null first: the template's suggestion.
  const options: (string | null)[] = [null, ...presenters.map((p) => p.id)];
  const selected = Math.max(0, options.indexOf(chosen));
  const photoThumbnail = (id: string) => {
    const p = presenters.find((x) => x.id === id);
    return p?.kind === 'photo' && p.thumbnailUrl ? p.thumbnailUrl : undefined;
  };
  const choose = (id: string | null) => useStudio.getState().update({ presenterId: id });
  const onKey = (e: React.KeyboardEvent, i: number) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const next = Math.min(options.length - 1, Math.max(0, i + step));
    choose(options[next]!);
    grid.current?.querySelectorAll<HTMLElement>('[data-presenter]')[next]?.focus();
  };

  return (
    <section className="panel" aria-labelledby="presenter-heading">
      <div className="panel-head">
        <h2 id="presenter-heading">Presenter</h2>
        <span className="muted small" data-testid="chosen-presenter">
          {chosen ? presenterFacts(presenters, chosen).name : suggested ? `${suggested.name} (the template's)` : ''}
        </span>
      </div>
      {fieldError && <p className="error small">Presenter {fieldError}.</p>}
      <div className="presenter-grid" role="radiogroup" aria-labelledby="presenter-heading" ref={grid}>
        {options.map((id, i) => {
          const facts = id ? presenterFacts(presenters, id) : suggested;
          const label = id ? facts!.name : `Template's choice${suggested ? ` (${suggested.name})` : ''}`;
          const on = i === selected;
          return (
            <div
              key={id ?? '(template)'}
              role="radio"
              aria-checked={on}
              aria-label={label}
              tabIndex={on ? 0 : -1}
              data-presenter={id ?? ''}
              className={`presenter-card${on ? ' selected' : ''}`}
              onClick={() => choose(id)}
              onKeyDown={(e) => {
                if (e.key === ' ' || e.key === 'Enter') {
                  e.preventDefault();
                  choose(id);
                } else onKey(e, i);
              }}
            >
              {facts && <PresenterThumb presenterId={facts.id} template={template} photoUrl={photoThumbnail(facts.id)} />}
              <span className="small">{id ? facts!.name : 'Template’s'}</span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
