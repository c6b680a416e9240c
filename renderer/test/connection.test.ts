// Point 4 of issue 12: the status badge names the real cause, not "Offline" for everything.
import { describe, expect, it } from 'vitest';
import { connectionLabel } from '../lib/connection.js';

describe('point 4: connection badge', () => {
  it('says why a reachable API cannot be used, and points to Settings', () => {
    expect(connectionLabel(false, { code: 'unauthorized', message: 'unknown key' }, false)).toEqual({ text: 'Key refused', tone: 'off', settings: true });
    expect(connectionLabel(false, { code: 'forbidden', message: 'x' }, false)).toMatchObject({ text: 'Not authorised for this user', settings: true });
    expect(connectionLabel(false, { code: 'internal_error', message: 'x' }, false)).toMatchObject({ text: 'Server error', settings: true });
    expect(connectionLabel(false, { code: 'no_key', message: 'x' }, false)).toMatchObject({ text: 'No key set', settings: true });
  });

  it('says Offline only when the API cannot be reached', () => {
    expect(connectionLabel(false, { code: 'offline', message: 'x' }, false)).toEqual({ text: 'Offline', tone: 'off', settings: false });
    expect(connectionLabel(false, null, false).text).toBe('Offline');
    expect(connectionLabel(true, null, true).text).toBe('Studio starting…');
    expect(connectionLabel(true, { code: 'unauthorized', message: 'x' }, false).text).toBe('Connected');
  });
});
