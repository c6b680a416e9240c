// @vitest-environment happy-dom
// Rendering sends one job per state of the draft, however it is asked for: Ctrl+Enter twice,
// the button after the shortcut, or a second press after the first answer came back. An edit
// makes a new state that renders again; "Render again" is the deliberate way to repeat one.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { RenderBar, renderCurrent } from '../../components/RenderBar.js';
import { ScriptEditor } from '../../components/ScriptEditor.js';
import { Notices } from '../../components/Notices.js';
import { makeJob } from '../job-fixture.js';
import { installBridge, startEditor, type Calls } from './support.js';
import { useStudio } from '../../store/index.js';

let calls: Calls;
let n = 0;
beforeEach(() => {
  calls = installBridge({
    'jobs.submit': () => ({ job: makeJob(`job_${++n}`, 'queued', '2026-11-23T10:00:00.000Z'), queued: null }),
    'drafts.save': (d: object) => ({ ...d, id: 'd1', createdAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' }),
  });
  startEditor('newsroom');
  const s = useStudio.getState();
  s.loadDocument({ ...s.document, voiceId: 'en-US-Ava' }, null);
});
const submits = () => calls.filter((c) => c.method === 'jobs.submit').length;
const script = () => screen.getByLabelText('Narration script');
const ctrlEnter = () => fireEvent.keyDown(script(), { key: 'Enter', ctrlKey: true });

function ui() {
  render(
    <>
      <ScriptEditor onRender={() => void renderCurrent()} />
      <RenderBar />
      <Notices />
    </>,
  );
  fireEvent.change(script(), { target: { value: 'Hello from the studio.' } });
}

describe('one render per draft state', () => {
  it('Ctrl+Enter twice in a row sends one job', async () => {
    ui();
    ctrlEnter();
    ctrlEnter();
    await waitFor(() => expect(screen.getByTestId('last-job-status')).toBeTruthy());
    expect(submits()).toBe(1);
  });

  it('a second Ctrl+Enter or click after the answer sends nothing and offers Render again', async () => {
    ui();
    ctrlEnter();
    await waitFor(() => expect(screen.getByTestId('last-job-status')).toBeTruthy());
    ctrlEnter();
    fireEvent.click(screen.getByRole('button', { name: /Render video|Sending/ }));
    await act(async () => {});
    expect(submits()).toBe(1);
    fireEvent.click(await screen.findByRole('button', { name: 'Render again' }));
    await waitFor(() => expect(submits()).toBe(2));
  });

  it('an edit after a render renders again', async () => {
    ui();
    ctrlEnter();
    await waitFor(() => expect(submits()).toBe(1));
    await waitFor(() => expect(screen.getByTestId('last-job-status')).toBeTruthy());
    fireEvent.change(script(), { target: { value: 'Hello from the studio, again.' } });
    ctrlEnter();
    await waitFor(() => expect(submits()).toBe(2));
  });
});
