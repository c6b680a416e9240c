// The browser bridge client: dist/web-client/studio-client.js from `npm run build`, or, when the
// source is newer (or there is no build), compiled from web-client/studio-client.ts.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

const mtime = (p: string) => stat(p).then((s) => s.mtimeMs, () => null);

export async function loadClientScript(root: string): Promise<string> {
  const built = join(root, 'dist/web-client/studio-client.js');
  const sourcePath = join(root, 'web-client/studio-client.ts');
  const [builtAt, sourceAt] = await Promise.all([mtime(built), mtime(sourcePath)]);
  if (builtAt !== null && (sourceAt === null || builtAt >= sourceAt)) return readFile(built, 'utf8');
  const source = await readFile(sourcePath, 'utf8');
  const ts = (await import('typescript')).default;
  const out = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
  // The source has type imports only: drop the leftover module marker for a classic script.
  return `(() => {\n${out.outputText.replace(/^export \{\};?$/m, '')}\n})();\n`;
}
