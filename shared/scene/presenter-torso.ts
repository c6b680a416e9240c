// The colours along the bottom edge of each presenter's torso, in art units (viewBox 400×480).
// Written by tools/engine/torso-runs.ts from resources/presenters/*/body.svg; do not edit by hand.
export interface TorsoRun {
  x: number;
  width: number;
  color: string;
}

export const PRESENTER_TORSO_RUNS: Record<string, TorsoRun[]> = {
  nora: [
    { x: 0, width: 400, color: '#c8283d' },
  ],
  leo: [
    { x: 0, width: 128, color: '#3f7d5a' },
    { x: 128, width: 1, color: '#387151' },
    { x: 129, width: 2, color: '#366d4e' },
    { x: 131, width: 1, color: '#3b7755' },
    { x: 132, width: 136, color: '#3f7d5a' },
    { x: 268, width: 1, color: '#3b7755' },
    { x: 269, width: 2, color: '#366d4e' },
    { x: 271, width: 1, color: '#387251' },
    { x: 272, width: 128, color: '#3f7d5a' },
  ],
  maya: [
    { x: 0, width: 400, color: '#2d2a6e' },
  ],
  sam: [
    { x: 0, width: 400, color: '#ff5e5b' },
  ],
  iris: [
    { x: 0, width: 400, color: '#3b3f58' },
  ],
  omar: [
    { x: 0, width: 400, color: '#23344f' },
  ],
  amara: [
    { x: 0, width: 400, color: '#e0a526' },
  ],
  kenji: [
    { x: 0, width: 400, color: '#2f6f73' },
  ],
  grace: [
    { x: 0, width: 128, color: '#7a3f6e' },
    { x: 128, width: 1, color: '#6e3864' },
    { x: 129, width: 2, color: '#6a3660' },
    { x: 131, width: 1, color: '#743b69' },
    { x: 132, width: 136, color: '#7a3f6e' },
    { x: 268, width: 1, color: '#753b69' },
    { x: 269, width: 2, color: '#6a3660' },
    { x: 271, width: 1, color: '#6f3964' },
    { x: 272, width: 128, color: '#7a3f6e' },
  ],
  rafael: [
    { x: 0, width: 400, color: '#3b3b3f' },
  ],
  aisha: [
    { x: 0, width: 400, color: '#2e6b5e' },
  ],
  tomas: [
    { x: 0, width: 400, color: '#4a5bd4' },
  ],
  lin: [
    { x: 0, width: 400, color: '#e8e2d6' },
  ],
  walter: [
    { x: 0, width: 128, color: '#55606e' },
    { x: 128, width: 1, color: '#4d5764' },
    { x: 129, width: 2, color: '#4a5461' },
    { x: 131, width: 1, color: '#515b69' },
    { x: 132, width: 136, color: '#55606e' },
    { x: 268, width: 1, color: '#515b69' },
    { x: 269, width: 2, color: '#4a5461' },
    { x: 271, width: 1, color: '#4d5765' },
    { x: 272, width: 128, color: '#55606e' },
  ],
  priya: [
    { x: 0, width: 400, color: '#1e6091' },
  ],
  jordan: [
    { x: 0, width: 400, color: '#111827' },
  ],
};
