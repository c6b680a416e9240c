// Files written by earlier releases (drafts and outbox items of versions 1 and 2, kept as
// fixtures exactly as that code wrote them) open in the current document shape.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentOfJob, type Job } from '../../shared/contract/index.js';
import { DraftStore } from '../services/drafts.js';
import { Outbox } from '../services/outbox.js';
import { draftInput, ROOT, tempDir, testLogger } from './helpers.js';

const FIXTURES = join(ROOT, 'electron/test/fixtures/previous-release');

function folderWith(fixture: string, as: string): string {
  const dir = tempDir();
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(FIXTURES, fixture), join(dir, as));
  return dir;
}

describe('files of the previous release', () => {
  it('a version-1 draft opens as one scene with its script, settings and dates', async () => {
    const written = JSON.parse(readFileSync(join(FIXTURES, 'draft-v1.json'), 'utf8')) as Record<string, unknown>;
    expect(written.version).toBeUndefined(); // the fixture is the old shape
    const store = new DraftStore(folderWith('draft-v1.json', 'd_release_v1.json'));
    const d = await store.get('d_release_v1');
    expect(d).toEqual({
      version: 3, id: 'd_release_v1', name: 'Quarterly update', templateId: 'newsroom', voiceId: 'en-US-Ava',
      params: { aspectRatio: '16:9', avatar: { scale: 0.8, x: 0.7, y: 0.6 } }, placements: {}, presenterId: null,
      scenes: [{ id: 's_1', text: 'Hello team!\n\nOur numbers   are up this quarter.', background: null, presenter: true, avatar: null, placements: {}, presenterId: null, transition: 'cut', minSeconds: null }],
      createdAt: written.createdAt, updatedAt: written.updatedAt,
    });
    expect(await store.list('NUMBERS')).toEqual([{ id: 'd_release_v1', name: 'Quarterly update', excerpt: 'Hello team! Our numbers are up this quarter.', updatedAt: written.updatedAt }]);
    // Saved again, it is written in the current version and keeps its creation date.
    const again = await store.save({ ...d, name: 'Quarterly update v2' });
    expect(again.createdAt).toBe(written.createdAt);
    expect(JSON.parse(readFileSync(join(store.dir, 'd_release_v1.json'), 'utf8'))).toMatchObject({ version: 3, scenes: [{ id: 's_1' }] });
  });

  it('a version-2 draft opens with its scenes and placements, no placement at other ratios and the template\'s presenter', async () => {
    const written = z.record(z.string(), z.unknown()).parse(JSON.parse(readFileSync(join(FIXTURES, 'draft-v2.json'), 'utf8')));
    expect(written.version).toBe(2);
    const store = new DraftStore(folderWith('draft-v2.json', `${String(written.id)}.json`));
    const d = await store.get(String(written.id));
    expect(d).toEqual({
      version: 3, id: written.id, name: 'Launch in two scenes', templateId: 'newsroom', voiceId: 'en-US-Ava',
      params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.72, y: 0.58 } }, placements: {}, presenterId: null,
      scenes: [
        { id: 's_a', text: 'Welcome to the launch.', background: null, presenter: true, avatar: null, placements: {}, presenterId: null, transition: 'cut', minSeconds: null },
        { id: 's_b', text: 'Here is the plan.', background: null, presenter: true, avatar: { scale: 0.5, x: 0.2, y: 0.6 }, placements: {}, presenterId: null, transition: 'fade', minSeconds: 3 },
      ],
      createdAt: written.createdAt, updatedAt: written.updatedAt,
    });
    const again = await store.save({ ...d, presenterId: 'amara' });
    expect(JSON.parse(readFileSync(join(store.dir, `${String(written.id)}.json`), 'utf8'))).toMatchObject({ version: 3, presenterId: 'amara', createdAt: written.createdAt });
    expect(again.presenterId).toBe('amara');
  });

  it('a version-2 outbox item of scenes is listed with its request as written', async () => {
    const written = z.object({ id: z.string(), request: z.unknown() }).parse(JSON.parse(readFileSync(join(FIXTURES, 'outbox-v2.json'), 'utf8')));
    const outbox = new Outbox({ dir: folderWith('outbox-v2.json', `${written.id}.json`), clientFor: () => Promise.reject(new Error('not sent here')), onChange: () => undefined, onSent: () => undefined, log: testLogger() });
    const [item, ...more] = await outbox.list();
    expect(more).toEqual([]);
    expect(item).toMatchObject({ version: 2, id: written.id, request: written.request });
    outbox.close();
  });

  it('a version-1 outbox item is listed as version 2 with its request and Idempotency-Key', async () => {
    const outbox = new Outbox({ dir: folderWith('outbox-v1.json', '0b7c3a52-4a5e-4f7e-9a39-2f7f3b0c1d2e.json'), clientFor: () => Promise.reject(new Error('not sent here')), onChange: () => undefined, onSent: () => undefined, log: testLogger() });
    const [item, ...more] = await outbox.list();
    expect(more).toEqual([]);
    expect(item).toMatchObject({ version: 2, id: '0b7c3a52-4a5e-4f7e-9a39-2f7f3b0c1d2e', profileId: 'local', attempts: 1, request: { text: 'Hello team!', title: 'Quarterly update', templateId: 'newsroom', voiceId: 'en-US-Ava', params: { aspectRatio: '16:9' } } });
    outbox.close();
  });

  it('a draft of an unknown shape is set aside, not read as a document', async () => {
    const dir = tempDir();
    const store = new DraftStore(dir);
    const d = await store.save(draftInput('Fine', 'Fine.'));
    writeFileSync(join(dir, `${d.id}.json`), JSON.stringify({ version: 7, name: 'from the future' }));
    await expect(store.get(d.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(existsSync(join(dir, `${d.id}.json.corrupt`))).toBe(true);
  });
});

describe('the document of a job', () => {
  const job = {
    text: 'One.\n\nTwo.', templateId: 'newsroom', voiceId: 'en-US-Ava',
    params: { aspectRatio: '16:9' as const, avatar: { scale: 1, x: 0.8, y: 0.9 } },
  };
  it('is its scenes when it has them: no presenter, own placement and background kept', () => {
    const scenes: NonNullable<Job['scenes']> = [
      { text: 'One.', templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: 'ava', avatar: { scale: 1, x: 0.8, y: 0.9 }, background: null, transition: 'cut' },
      { text: 'Two.', templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: 'ava', avatar: null, background: { assetId: 'ast_1', page: 2, fit: 'contain' }, transition: 'fade', minSeconds: 4 },
      { text: 'Three.', templateId: 'newsroom', voiceId: 'en-US-Ava', presenterId: 'ava', avatar: { scale: 0.5, x: 0.1, y: 0.2 }, background: null, transition: 'slide' },
    ];
    const doc = documentOfJob({ ...job, scenes }, 'Copy');
    expect(doc.scenes.map((s) => [s.text, s.presenter, s.avatar, s.background?.page ?? null, s.transition, s.minSeconds])).toEqual([
      ['One.', true, null, null, 'cut', null],
      ['Two.', false, null, 2, 'fade', 4],
      ['Three.', true, { scale: 0.5, x: 0.1, y: 0.2 }, null, 'slide', null],
    ]);
  });
  it('is one plain scene of its text otherwise', () => {
    expect(documentOfJob(job, 'Copy').scenes).toEqual([{ id: 's_1', text: 'One.\n\nTwo.', background: null, presenter: true, avatar: null, placements: {}, presenterId: null, transition: 'cut', minSeconds: null }]);
  });
});
