// What the status badge says about the render API: its real state, not "Offline" for every
// failure (a refused key is reachable and fixed in Settings, not by waiting).
import type { BridgeError, StudioStatus } from '../../shared/bridge/index.js';

export interface ConnectionLabel {
  text: string;
  tone: 'on' | 'wait' | 'off';
  /** The cause is fixed in Settings (the badge links there). */
  settings: boolean;
}

/**
 * `studio`: the local studio's status while it is the active profile. Its watchdog knows before
 * any call does that it stopped answering, so what it says comes before the last call's answer.
 */
export function connectionLabel(online: boolean, problem: BridgeError | null, studio: StudioStatus | null): ConnectionLabel {
  switch (studio?.state) {
    case 'starting':
      return { text: 'Studio starting…', tone: 'wait', settings: false };
    case 'restarting':
      return { text: 'Local studio not responding — restarting', tone: 'wait', settings: false };
    case 'failed':
      return { text: 'Local studio stopped', tone: 'off', settings: true };
  }
  if (online) return { text: 'Connected', tone: 'on', settings: false };
  switch (problem?.code) {
    case 'unauthorized':
      return { text: 'Key refused', tone: 'off', settings: true };
    case 'no_key':
      return { text: 'No key set', tone: 'off', settings: true };
    case 'forbidden':
      return { text: 'Not authorised for this user', tone: 'off', settings: true };
    case 'internal_error':
    case 'unreadable_response':
      return { text: 'Server error', tone: 'off', settings: true };
    case 'keychain_unavailable':
      return { text: 'Keychain unavailable', tone: 'off', settings: true };
    default:
      return { text: 'Offline', tone: 'off', settings: false };
  }
}
