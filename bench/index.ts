// `npm run bench -- <name>`: each benchmark reports ratios against a baseline measured in the same run.
const benches: Record<string, string> = {
  api: './api.ts',
  render: './render.ts',
  ui: './ui.ts',
  fleet: './fleet.ts',
};

const name = process.argv[2];
if (!name || !(name in benches)) {
  console.error(`usage: npm run bench -- <${Object.keys(benches).join('|')}>`);
  process.exit(2);
}
const mod = (await import(benches[name]!)) as { main(args: string[]): Promise<void> };
await mod.main(process.argv.slice(3));
