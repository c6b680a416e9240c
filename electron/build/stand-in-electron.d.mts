// Types of stand-in-electron.mjs (plain JavaScript: run by node on build machines).
export function makeStandInElectron(dir: string): string;
