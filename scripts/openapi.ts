// `npm run openapi`: writes docs/openapi.json from the contract's zod schemas.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '../server/openapi.js';
import { VERSION } from '../server/start.js';

const out = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
mkdirSync(fileURLToPath(new URL('../docs/', import.meta.url)), { recursive: true });
writeFileSync(out, `${JSON.stringify(buildOpenApi(VERSION), null, 2)}\n`);
console.log(`wrote ${out}`);
