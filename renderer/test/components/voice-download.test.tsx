// @vitest-environment happy-dom
// A voice that needs its download is caught before a render is sent: the render bar says so and
// offers the download with its progress; once installed the render goes. A failure of the
// network behind a download or a render reaches the creator in words, not as a system error.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { VoicePackStatus } from '../../../shared/contract/index.js';
import { JobRow } from '../../components/JobRow.js';
import { RenderBar } from '../../components/RenderBar.js';
import { VoicePicker } from '../../components/VoicePicker.js';
import { useCatalogs, useStudio } from '../../store/index.js';
import { makeJob } from '../job-fixture.js';
import { installBridge, startEditor, TEMPLATES, type Calls } from './support.js';

const LINDA = { id: 'en-US-Linda', name: 'Linda', locale: 'en-US', gender: 'female', engine: 'piper', quality: 'natural', sampleUrl: '', downloadBytes: 63_536_351 } as const;
const LISA = { id: 'en-US-Lisa', name: 'Lisa', locale: 'en-US', gender: 'female', engine: 'pico', quality: 'standard', sampleUrl: '' } as const;
let calls: Calls;
let pack: VoicePackStatus;
beforeEach(() => {
  pack = { state: 'missing', receivedBytes: 0, totalBytes: 63_536_351 };
  calls = installBridge({
    'voices.pack': ({ install }: { install?: boolean }) => {
      if (install) pack = { ...pack, state: 'downloading', receivedBytes: 20_000_000 };
      return pack;
    },
    'jobs.submit': () => ({ job: makeJob('job_1', 'queued', '2026-11-23T10:00:00.000Z'), queued: null }),
    'drafts.save': (d: object) => ({ ...d, id: 'd1', createdAt: '', updatedAt: '' }),
  });
  startEditor('newsroom');
  useCatalogs.setState({ voices: [LINDA, LISA], templates: TEMPLATES });
  const s = useStudio.getState();
  s.loadDocument({ ...s.document, voiceId: LINDA.id, scenes: s.document.scenes.map((x) => ({ ...x, text: 'Hello.' })) }, null);
});
const submits = () => calls.filter((c) => c.method === 'jobs.submit').length;

describe('a voice that needs its download', () => {
  it('is named before the render is sent, and the download is offered with its progress', async () => {
    render(<RenderBar />);
    fireEvent.click(screen.getByRole('button', { name: /Render video/ }));
    expect(await screen.findByText(/Linda needs its voice download/)).toBeTruthy();
    expect(submits()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: /^Download 64 MB/ }));
    await waitFor(() => expect(calls).toContainEqual({ method: 'voices.pack', input: { voiceId: LINDA.id, install: true } }));
    expect(await screen.findByRole('progressbar', { name: 'Downloading Linda' })).toBeTruthy();
    pack = { ...pack, state: 'installed', receivedBytes: pack.totalBytes };
    await waitFor(() => expect(screen.queryByText(/Linda needs its voice download/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /Render video/ }));
    await waitFor(() => expect(submits()).toBe(1));
  });

  it('does not hold back a render with a voice that ships with the app', async () => {
    const s = useStudio.getState();
    s.update({ voiceId: LISA.id });
    render(<RenderBar />);
    fireEvent.click(screen.getByRole('button', { name: /Render video/ }));
    await waitFor(() => expect(submits()).toBe(1));
    expect(calls.some((c) => c.method === 'voices.pack')).toBe(false);
  });
});

describe('network failures in words', () => {
  it('a failed job or download never shows a raw system error', async () => {
    const failed = makeJob('job_2', 'failed', '2026-11-23T10:00:00.000Z', { error: { code: 'render_failed', message: 'voice pack download failed: getaddrinfo ENOTFOUND huggingface.co' } });
    const { unmount } = render(
      <div role="grid">
        <JobRow job={failed} templateName="Newsroom" selected={false} now={Date.now()} onToggle={() => {}} onPlay={() => {}} />
      </div>,
    );
    expect(document.body.textContent).not.toMatch(/ENOTFOUND|getaddrinfo/);
    expect(document.body.textContent).toMatch(/could not reach the internet/);
    unmount();
    pack = { state: 'failed', receivedBytes: 0, totalBytes: 63_536_351, error: 'fetch failed: getaddrinfo ENOTFOUND huggingface.co' };
    render(<VoicePicker />);
    expect(await screen.findByText(/could not reach the internet/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/ENOTFOUND|getaddrinfo/);
  });
});
