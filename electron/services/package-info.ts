// The app's own package.json, as the desktop app and the web shell read it at start: checked
// with a schema like every other file read from disk.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const PackageInfo = z.object({
  version: z.string().min(1),
  homepage: z.string().optional(),
  bugs: z.union([z.string(), z.object({ url: z.string().optional() })]).optional(),
});
export type PackageInfo = z.infer<typeof PackageInfo>;

export function readPackageInfo(root: string): PackageInfo {
  return PackageInfo.parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
}
