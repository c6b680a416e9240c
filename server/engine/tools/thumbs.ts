// Dev aid: every template's catalog thumbnail at each of its aspect ratios → /tmp/thumbs/*.jpg
import { mkdirSync, writeFileSync } from 'node:fs';
import templates from '../../../resources/templates.json' with { type: 'json' };
import type { AspectRatio } from '../../../shared/contract/index.js';
import { createEngine } from '../index.js';

mkdirSync('/tmp/thumbs', { recursive: true });
const engine = (await createEngine({ cacheDir: '/tmp/thumbs/cache' }))!;
for (const t of templates.templates) {
  for (const a of t.aspectRatios) {
    writeFileSync(`/tmp/thumbs/${t.id}-${a.replace(':', 'x')}.jpg`, await engine.templateThumbnail(t.id, a as AspectRatio));
  }
}
await engine.close?.();
