// The browser bridge client, compiled from electron/web/client/studio-client.ts once at start
// (or taken prebuilt from dist/web-client after `npm run build`).
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export async function loadClientScript(root: string): Promise<string> {
  const built = join(root, 'dist/web-client/studio-client.js');
  if (existsSync(built)) return readFile(built, 'utf8');
  const source = await readFile(join(root, 'electron/web/client/studio-client.ts'), 'utf8');
  const ts = (await import('typescript')).default;
  const out = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false } });
  // Only type imports in the source: drop any leftover module syntax for a classic script.
  return `(() => {\n${out.outputText.replace(/^export \{\};?$/m, '')}\n})();\n`;
}
