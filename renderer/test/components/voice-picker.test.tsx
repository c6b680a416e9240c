// @vitest-environment happy-dom
// The voice list as a person uses it: best-sounding voices first, the user's language first among
// equals (the chosen voice scrolled into view needs layout: tests/ui/steady.spec.ts); a sample notice about a voice that needs its
// download goes once another voice is chosen; the download buttons are one Tab stop.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import catalog from '../../../resources/voices.json' with { type: 'json' };
import { Voice } from '../../../shared/contract/index.js';
import { VoicePicker } from '../../components/VoicePicker.js';
import { useCatalogs, useStudio } from '../../store/index.js';
import { installBridge, startEditor } from './support.js';

// As the API lists them: a neural voice says how much its pack weighs.
const VOICES = Voice.array().parse(
  catalog.voices.map(({ piper, espeak: _espeak, ...v }) => ({ ...v, sampleUrl: '', ...(piper ? { downloadBytes: piper.files.reduce((n, f) => n + f.bytes, 0), licence: piper.licence } : {}) })),
);
beforeAll(() => void vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-GB', 'en']));
afterAll(() => void vi.restoreAllMocks());
beforeEach(() => {
  installBridge({ 'voices.pack': () => ({ state: 'missing', receivedBytes: 0, totalBytes: 63_000_000, error: null }) });
  startEditor('newsroom');
  useCatalogs.setState({ voices: VOICES });
  const s = useStudio.getState();
  s.loadDocument({ ...s.document, voiceId: 'en-US-Lisa' }, null);
});
const names = () => screen.getAllByRole('radio').map((r) => (r as HTMLInputElement).value);

describe('voice picker', () => {
  it('lists voices by quality, then by how well their language matches the user’s', () => {
    render(<VoicePicker />);
    const order = names();
    const quality = order.map((id) => VOICES.find((v) => v.id === id)!.quality);
    expect(quality.indexOf('standard')).toBeGreaterThan(quality.lastIndexOf('natural'));
    expect(quality.indexOf('basic')).toBeGreaterThan(quality.lastIndexOf('standard'));
    expect(order.slice(0, 4)).toEqual(['en-GB-Jenny', 'en-GB-Emma', 'en-GB-George', 'en-US-Linda']); // en-GB exact, then English
    expect(order.filter((id) => VOICES.find((v) => v.id === id)!.quality === 'standard').slice(0, 3)).toEqual(['en-GB-Kate', 'en-GB-Alan', 'en-US-Lisa']);
  });

  it('drops the "download to hear a sample" notice once another voice is chosen', async () => {
    render(<VoicePicker />);
    fireEvent.click(screen.getByRole('button', { name: "Play Linda's sample" }));
    expect(await screen.findByText(/Download Linda to hear a sample/)).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /Kate/ }));
    await waitFor(() => expect(screen.queryByText(/Download Linda to hear a sample/)).toBeNull());
  });

  it('makes the download buttons one Tab stop, moved through with the arrow keys', async () => {
    render(<VoicePicker />);
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Download / }).length).toBe(6));
    const buttons = screen.getAllByRole('button', { name: /^Download / });
    expect(buttons.filter((b) => b.tabIndex === 0)).toHaveLength(1);
    act(() => buttons[0]!.focus());
    fireEvent.keyDown(buttons[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(buttons[1]);
    expect(buttons.filter((b) => b.tabIndex === 0)).toEqual([buttons[1]]);
  });
});
