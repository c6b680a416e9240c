// What the active render API offers, as the editor uses it. Unknown (offline, not asked yet)
// counts as offered: only an API whose health leaves an extension out hides its controls.
import type { Capabilities } from '../../shared/bridge/index.js';

export const offers = (caps: Capabilities | null, what: 'scenes' | 'assets' | 'output' | 'sound' | 'presenters'): boolean => caps?.[what] !== false;
