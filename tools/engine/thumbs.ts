// Dev aid: every template's catalog thumbnail at each of its aspect ratios → /tmp/thumbs/*.jpg
import { mkdirSync, writeFileSync } from 'node:fs';
import { TEMPLATES } from '../../shared/scene/index.js';
import { createEngine } from '../../server/engine/index.js';

mkdirSync('/tmp/thumbs', { recursive: true });
const engine = (await createEngine({ cacheDir: '/tmp/thumbs/cache' }))!;
for (const t of TEMPLATES) {
  for (const a of t.aspectRatios) {
    writeFileSync(`/tmp/thumbs/${t.id}-${a.replace(':', 'x')}.jpg`, await engine.templateThumbnail(t.id, a));
  }
}
await engine.close?.();
