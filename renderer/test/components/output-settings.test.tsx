// @vitest-environment happy-dom
// The output panel as a creator uses it: 1080p and captions as a file go into the document and
// out with the render request; "Server default" leaves the resolution to the render API; the
// caption position only applies to burned captions; an API without "output" shows no panel.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Capabilities } from '../../../shared/bridge/index.js';
import type { RenderRequest } from '../../../shared/contract/index.js';
import { OutputSettings } from '../../components/OutputSettings.js';
import { renderCurrent } from '../../components/RenderBar.js';
import { useSettings, useStudio } from '../../store/index.js';
import { makeJob } from '../job-fixture.js';
import { installBridge, startEditor, type Calls } from './support.js';

let calls: Calls;
beforeEach(() => {
  calls = installBridge({
    'jobs.submit': () => ({ job: makeJob('job_1', 'queued', '2026-11-23T10:00:00.000Z'), queued: null }),
    'drafts.save': (d: object) => ({ ...d, id: 'd1', createdAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' }),
  });
  startEditor('newsroom');
  const s = useStudio.getState();
  s.loadDocument({ ...s.document, voiceId: 'en-US-Ava', scenes: [{ ...s.document.scenes[0]!, text: 'Hello from the studio.' }] }, null);
});

const group = (name: string) => within(screen.getByRole('radiogroup', { name }));
const params = () => useStudio.getState().document.params;

describe('output settings', () => {
  it('1080p and captions as a file go out with the render; the position waits for burned captions', async () => {
    render(<OutputSettings />);
    expect(params().resolution).toBeUndefined();
    fireEvent.click(group('Resolution').getByRole('radio', { name: '1080p' }));
    expect(screen.getByText('1920×1080')).toBeTruthy();
    fireEvent.click(group('Captions').getByRole('radio', { name: 'File only' }));
    expect((screen.getByLabelText('Caption position') as HTMLSelectElement).disabled).toBe(true);
    expect(params()).toMatchObject({ resolution: '1080p', captions: 'file' });
    await renderCurrent();
    await waitFor(() => expect(calls.some((c) => c.method === 'jobs.submit')).toBe(true));
    const sent = (calls.find((c) => c.method === 'jobs.submit')!.input as { request: RenderRequest }).request;
    expect(sent.params).toMatchObject({ resolution: '1080p', captions: 'file' });
  });

  it('"Server default" and "Burned in" remove the fields again; a position is kept', () => {
    render(<OutputSettings />);
    fireEvent.click(group('Resolution').getByRole('radio', { name: '720p' }));
    fireEvent.click(group('Captions').getByRole('radio', { name: 'None' }));
    fireEvent.click(group('Resolution').getByRole('radio', { name: 'Server default' }));
    fireEvent.click(group('Captions').getByRole('radio', { name: 'Burned in' }));
    fireEvent.change(screen.getByLabelText('Caption position'), { target: { value: 'top' } });
    expect(params()).not.toHaveProperty('resolution');
    expect(params()).not.toHaveProperty('captions');
    expect(params().captionPosition).toBe('top');
  });

  it('is not shown for an API whose health lacks "output"', () => {
    useSettings.setState({ capabilities: { output: false } as Capabilities });
    render(<OutputSettings />);
    expect(screen.queryByRole('heading', { name: 'Output' })).toBeNull();
  });
});
