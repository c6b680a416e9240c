// @vitest-environment happy-dom
// The template picker as a person uses it: one radio per shipped template, chosen by click or
// by the arrow keys, Home and End (one Tab stop); a template without the draft's aspect ratio
// says what changed and offers Undo; a catalog that failed to load offers Try again.
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Notices } from '../../components/Notices.js';
import { TemplatePicker } from '../../components/TemplatePicker.js';
import { TemplateThumb } from '../../components/TemplateThumb.js';



import { installBridge, startEditor, TEMPLATES, type Calls } from './support.js';
import { useCatalogs, useStudio, useUi } from '../../store/index.js';

let calls: Calls;
beforeEach(() => {
  calls = installBridge({ 'drafts.save': (d: object) => ({ ...d, id: 'd1', createdAt: '', updatedAt: '' }) });
  startEditor('newsroom');
  useUi.setState({ notices: [] });
});
const radio = (name: string) => screen.getByRole('radio', { name: new RegExp(`^${name},`) });
const checked = () => screen.getAllByRole('radio').filter((r) => r.getAttribute('aria-checked') === 'true');
const draft = () => useStudio.getState().document;

describe('template picker', () => {
  it('offers every shipped template with its presenter and aspect ratios, the draft’s checked', () => {
    render(<TemplatePicker />);
    expect(screen.getAllByRole('radio')).toHaveLength(TEMPLATES.length);
    const newsroom = TEMPLATES.find((t) => t.id === 'newsroom')!;
    expect(radio('Newsroom').getAttribute('aria-label')).toBe(`Newsroom, presenter ${newsroom.presenter.name}, ${newsroom.aspectRatios.join(', ')}`);
    expect(checked()).toEqual([radio('Newsroom')]);
    // One Tab stop: the chosen template.
    expect(screen.getAllByRole('radio').filter((r) => r.tabIndex === 0)).toEqual([radio('Newsroom')]);
  });

  it('chooses a template by click, keeping the aspect ratio it has', () => {
    render(<TemplatePicker />);
    fireEvent.click(radio('Product Launch'));
    expect(draft().templateId).toBe('product-launch');
    expect(draft().params.aspectRatio).toBe('16:9');
    expect(checked()).toEqual([radio('Product Launch')]);
  });

  it('moves and chooses with the arrow keys, Home and End, and Space or Enter', () => {
    render(<TemplatePicker />);
    fireEvent.keyDown(radio('Newsroom'), { key: 'ArrowRight' });
    expect(draft().templateId).toBe(TEMPLATES[1]!.id);
    expect(document.activeElement).toBe(radio(TEMPLATES[1]!.name));
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(draft().templateId).toBe(TEMPLATES[TEMPLATES.length - 1]!.id);
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(draft().templateId).toBe(TEMPLATES[TEMPLATES.length - 2]!.id);
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    expect(draft().templateId).toBe(TEMPLATES[0]!.id);
    fireEvent.keyDown(radio('Classroom'), { key: 'Enter' });
    expect(draft().templateId).toBe('classroom');
  });

  it('says when the new template lacks the aspect ratio, and Undo brings the old scene back', () => {
    useStudio.getState().setAspectRatio('9:16');
    useStudio.getState().setAvatar({ scale: 0.8, x: 0.4, y: 0.6 });
    render(
      <>
        <TemplatePicker />
        <Notices />
      </>,
    );
    fireEvent.click(radio('Classroom'));
    expect(draft().params.aspectRatio).toBe('16:9');
    expect(screen.getByRole('status').textContent).toContain('Classroom has no 9:16: the video is now 16:9.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(draft().templateId).toBe('newsroom');
    expect(draft().params).toEqual({ aspectRatio: '9:16', avatar: { scale: 0.8, x: 0.4, y: 0.6 } });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows a catalog that failed to load, and Try again asks again', () => {
    useCatalogs.setState({ templates: [], error: 'The render API cannot be reached right now.' });
    render(<TemplatePicker />);
    expect(screen.getByRole('alert').textContent).toContain('cannot be reached');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(calls.map((c) => c.method)).toContain('catalogs.get');
  });
});

describe('template thumbnail', () => {
  // Drawn when the browser is idle: until then a placeholder holds the frame's shape.
  it('shows a placeholder of the frame’s shape until it is drawn', () => {
    const { container } = render(<TemplateThumb template={TEMPLATES[0]!} aspectRatio="9:16" width={90} />);
    const thumb = container.querySelector<HTMLElement>('.thumb')!;
    expect(thumb.dataset.state).toBe('loading');
    expect(thumb.style.aspectRatio).toBe('720 / 1280');
  });
});
