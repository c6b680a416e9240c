// `npm run bench -- <name> [flags]`: each benchmark reports ratios against a baseline measured in the same run.
// `--help` prints the usage and exits 0 without running anything; unknown flags exit 2.
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

interface Bench {
  USAGE: string;
  OPTIONS: ParseArgsOptionsConfig;
  main(args: string[]): Promise<void>;
}

const benches: Record<string, () => Promise<Bench>> = {
  api: () => import('./api.js'),
  render: () => import('./render.js'),
  ui: () => import('./ui.js'),
  fleet: () => import('./fleet.js'),
  voices: () => import('./voices.js'),
};
const names = Object.keys(benches).join('|');
const isHelp = (a: string) => a === '--help' || a === '-h';

const [name, ...args] = process.argv.slice(2);
if (name === undefined || isHelp(name) || name === 'help') {
  const usages = await Promise.all(Object.values(benches).map(async (load) => (await load()).USAGE));
  const text = `usage: npm run bench -- <${names}> [flags]  (--help after a name: its flags)\n  ${usages.join('\n  ')}`;
  if (name === undefined) console.error(text);
  else console.log(text);
  process.exit(name === undefined ? 2 : 0);
}
if (!(name in benches)) {
  console.error(`unknown benchmark ${name}\nusage: npm run bench -- <${names}> [flags]`);
  process.exit(2);
}
const bench = await benches[name]!();
if (args.some(isHelp)) {
  console.log(`usage: ${bench.USAGE}`);
  process.exit(0);
}
try {
  parseArgs({ args, options: bench.OPTIONS, strict: true });
} catch (err) {
  console.error(`${(err as Error).message}\nusage: ${bench.USAGE}`);
  process.exit(2);
}
await bench.main(args);
