// npm 11 runs a dependency's install script only when package.json's `allowScripts` says so, and
// warns at every install about each one it has no answer for. Every package the lockfile marks
// as having an install script — other platforms' optional builds included — is decided there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const Lockfile = z.object({
  packages: z.record(z.string(), z.object({ version: z.string().optional(), hasInstallScript: z.boolean().optional() })),
});
const Manifest = z.object({ allowScripts: z.record(z.string(), z.boolean()) });

const lock = Lockfile.parse(JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')));
const { allowScripts } = Manifest.parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')));

/** `node_modules/a/node_modules/@s/b` → `@s/b`. */
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('install scripts', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.hasInstallScript === true)
    .map(([path, p]) => ({ name: nameOf(path), version: p.version }));

  it('every dependency with an install script is allowed or denied in allowScripts', () => {
    expect(withScripts.length).toBeGreaterThan(0);
    const undecided = withScripts
      .filter(({ name, version }) => !(name in allowScripts) && !(`${name}@${version}` in allowScripts))
      .map(({ name, version }) => `${name}@${version}`);
    expect(undecided).toEqual([]);
  });

  it('allowScripts names only packages that have an install script', () => {
    const names = new Set(withScripts.map((p) => p.name));
    expect(Object.keys(allowScripts).filter((key) => !names.has(key.replace(/(?<=.)@.*$/, '')))).toEqual([]);
  });
});
