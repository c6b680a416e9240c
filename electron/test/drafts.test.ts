// Drafts are written atomically: killing the writer with SIGKILL in the middle of saving leaves
// the old draft or the new one, never a torn file.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DraftStore } from '../services/drafts.js';
import { documentText } from '../../shared/contract/index.js';
import { draftInput, ROOT, tempDir } from './helpers.js';

describe('drafts', () => {
  it('survive kill -9 in the middle of a save', async () => {
    const dir = tempDir();
    const id = 'd_killtest';
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'electron/test/fixtures/draft-writer.ts'), dir, id], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      // Let it save a while (several full writes), then kill at an arbitrary point.
      await new Promise<void>((resolve) => {
        let saves = 0;
        child.stdout.on('data', (d: Buffer) => {
          saves += (d.toString().match(/saved/g) ?? []).length;
          if (saves >= 2) resolve();
        });
      });
      await new Promise((r) => setTimeout(r, Math.random() * 40));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      const draft = JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as { name: string; scenes: { text: string }[] };
      const n = Number(draft.name.replace('version ', ''));
      expect(draft.scenes[0]!.text).toBe(String.fromCharCode(65 + (n % 26)).repeat(20000));
    }
    // A temp file left by the kill is never listed as a draft.
    const store = new DraftStore(dir);
    expect((await store.list()).map((d) => d.id)).toEqual([id]);
    expect(readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual([`${id}.json`]);
  });

  it('apply rapid autosaves of one draft in the order they were made', async () => {
    const store = new DraftStore(tempDir());
    const first = await store.save(draftInput('n', 'v0'));
    // Fire-and-forget autosaves, as a UI does on every keystroke; sizes vary so writes take different times.
    const saves = Array.from({ length: 30 }, (_, i) => store.save({ ...draftInput('n', `v${i + 1} ${'x'.repeat(((i * 7919) % 13) * 1500)}`), id: first.id }));
    await Promise.all(saves);
    expect(documentText(await store.get(first.id)).startsWith('v30 ')).toBe(true);
  });

  it('keep createdAt across saves, search by text, and refuse ids that are paths', async () => {
    const store = new DraftStore(tempDir());
    const a = await store.save(draftInput('Launch', 'Our new product ships today'));
    await new Promise((r) => setTimeout(r, 5));
    const a2 = await store.save({ ...draftInput('Launch v2', 'Our new product ships tomorrow', { templateId: 'newsroom', params: { aspectRatio: '1:1' } }), id: a.id });
    expect(a2.createdAt).toBe(a.createdAt);
    expect(a2.updatedAt > a.updatedAt).toBe(true);
    await store.save(draftInput('Other', 'Quarterly numbers'));
    expect((await store.list('TOMORROW')).map((d) => d.name)).toEqual(['Launch v2']);
    await expect(store.get('../secrets')).rejects.toMatchObject({ code: 'invalid_input' });
    await store.remove(a.id);
    await expect(store.get(a.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
