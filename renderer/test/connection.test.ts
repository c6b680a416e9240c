// The status badge names the real cause, not "Offline" for everything, nor "Connected" for a
// local studio that has stopped answering.
import { describe, expect, it } from 'vitest';
import type { StudioStatus } from '../../shared/bridge/index.js';
import { connectionLabel } from '../lib/connection.js';

describe('connection badge', () => {
  it('says why a reachable API cannot be used, and points to Settings', () => {
    expect(connectionLabel(false, { code: 'unauthorized', message: 'unknown key' }, null)).toEqual({ text: 'Key refused', tone: 'off', settings: true });
    expect(connectionLabel(false, { code: 'forbidden', message: 'x' }, null)).toMatchObject({ text: 'Not authorised for this user', settings: true });
    expect(connectionLabel(false, { code: 'internal_error', message: 'x' }, null)).toMatchObject({ text: 'Server error', settings: true });
    expect(connectionLabel(false, { code: 'no_key', message: 'x' }, null)).toMatchObject({ text: 'No key set', settings: true });
  });

  it('says Offline only when the API cannot be reached', () => {
    expect(connectionLabel(false, { code: 'offline', message: 'x' }, null)).toEqual({ text: 'Offline', tone: 'off', settings: false });
    expect(connectionLabel(false, null, null).text).toBe('Offline');
    expect(connectionLabel(true, null, studio('starting')).text).toBe('Studio starting…');
    expect(connectionLabel(true, { code: 'unauthorized', message: 'x' }, null).text).toBe('Connected');
  });

  it('says what the local studio is doing, whatever the last answer said', () => {
    expect(connectionLabel(true, null, studio('restarting', 'Local studio not responding — restarting'))).toEqual({ text: 'Local studio not responding — restarting', tone: 'wait', settings: false });
    expect(connectionLabel(false, { code: 'offline', message: 'x' }, studio('restarting', 'the local studio stopped unexpectedly (SIGKILL)')).text).toBe('Local studio not responding — restarting');
    expect(connectionLabel(true, null, studio('failed', 'could not start'))).toEqual({ text: 'Local studio stopped', tone: 'off', settings: true });
    expect(connectionLabel(true, null, studio('running')).text).toBe('Connected');
  });
});

function studio(state: StudioStatus['state'], error: string | null = null): StudioStatus {
  return { state, error, baseUrl: null, restarts: 0 };
}
