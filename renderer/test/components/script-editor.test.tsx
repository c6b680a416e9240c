// @vitest-environment happy-dom
// The script editor as a person uses it: typing updates the counts, the spoken duration and the
// caption screens; the draft saves itself after a pause (and says so); a failed save keeps the
// text and says it retries; Ctrl+Enter renders. (Only what the editor shows today.)
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../shared/contract/index.js';
import { ScriptEditor } from '../../components/ScriptEditor.js';

import { installBridge, startEditor, type Calls } from './support.js';
import { useEditor } from '../../store/index.js';

let calls: Calls;
let saveFails = false;
beforeEach(() => {
  saveFails = false;
  calls = installBridge({
    'drafts.save': (d: object) => {
      if (saveFails) throw { code: 'internal_error', message: 'disk full' };
      return { ...d, id: 'd1', createdAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' };
    },
  });
  startEditor('newsroom');
});
const script = () => screen.getByLabelText('Narration script');
const type = (text: string) => fireEvent.change(script(), { target: { value: text } });

describe('script editor', () => {
  it('counts characters and words and estimates the spoken duration as you type', async () => {
    render(<ScriptEditor onRender={() => {}} />);
    expect(screen.getByTestId('char-count').textContent).toBe(`0 / ${LIMITS.textMaxChars.toLocaleString()} characters`);
    type('Hello from the studio. This is a short test.');
    expect(screen.getByTestId('char-count').textContent).toBe(`44 / ${LIMITS.textMaxChars.toLocaleString()} characters`);
    await waitFor(() => expect(screen.getByText('9 words')).toBeTruthy());
    expect(screen.getByTestId('duration').textContent).not.toBe('≈ 0:00 spoken');
  });

  it('marks a script over the limit', () => {
    render(<ScriptEditor onRender={() => {}} />);
    type('a'.repeat(LIMITS.textMaxChars + 1));
    expect(screen.getByTestId('char-count').className).toBe('over');
    type('a'.repeat(LIMITS.textMaxChars - 10));
    expect(screen.getByTestId('char-count').className).toBe('near');
  });

  // happy-dom cannot measure text, so how lines break is left to tests/ui; here: the preview follows the script.
  it('shows the caption screens of the script as it is typed', async () => {
    render(<ScriptEditor onRender={() => {}} />);
    expect(screen.queryByTestId('caption-pages')).toBeNull();
    type('One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty.');
    await waitFor(() => expect(screen.getByTestId('caption-pages').querySelectorAll('li').length).toBeGreaterThan(0));
    const shown = [...screen.getByTestId('caption-pages').querySelectorAll('.caption-line')].map((l) => l.textContent).join(' ');
    expect(shown).toContain('One two');
    expect(shown).toContain('twenty.');
  });

  it('saves the draft after a pause and says so', async () => {
    render(<ScriptEditor onRender={() => {}} />);
    type('Saved by itself.');
    expect(screen.getByTestId('save-state').textContent).toBe('Unsaved changes');
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toBe('Saved'));
    expect(calls.filter((c) => c.method === 'drafts.save').at(-1)?.input).toMatchObject({ version: 3, scenes: [{ text: 'Saved by itself.' }], templateId: 'newsroom' });
  });

  it('keeps the text when a save fails, and says it retries', async () => {
    saveFails = true;
    render(<ScriptEditor onRender={() => {}} />);
    type('Do not lose me.');
    await waitFor(() => expect(screen.getByTestId('save-state').textContent).toBe('Not saved — retrying'));
    expect(screen.getByRole('alert').textContent).toContain('Your text is kept');
    expect(screen.getByRole('alert').textContent).toContain('Disk full');
    expect(script()).toHaveProperty('value', 'Do not lose me.');
    expect(JSON.parse(localStorage.getItem('presenter-studio.unsaved-draft') ?? '{}')).toMatchObject({ scenes: [{ text: 'Do not lose me.' }] });
    saveFails = false;
    await act(() => useEditor.getState().saveNow());
    expect(screen.getByTestId('save-state').textContent).toBe('Saved');
  });

  it('renders with Ctrl+Enter (or ⌘+Enter), not with Enter alone', () => {
    const onRender = vi.fn();
    render(<ScriptEditor onRender={onRender} />);
    fireEvent.keyDown(script(), { key: 'Enter' });
    expect(onRender).not.toHaveBeenCalled();
    fireEvent.keyDown(script(), { key: 'Enter', ctrlKey: true });
    fireEvent.keyDown(script(), { key: 'Enter', metaKey: true });
    expect(onRender).toHaveBeenCalledTimes(2);
  });
});
