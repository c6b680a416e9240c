// Every file the app reads back from disk is checked against the contract's schemas: one that
// is not JSON or not of the right shape (a torn disk, an older release, a hand edit) is set
// aside as `<file>.corrupt`, reported as a warning the app logs, and read as empty; nothing
// crashes and the rest of the data carries on.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CORRUPT_FILE_WARNING } from '../services/atomic-file.js';
import { CatalogCache } from '../services/catalogs.js';
import { DraftStore } from '../services/drafts.js';
import { JobsCache } from '../services/jobs-cache.js';
import { Outbox } from '../services/outbox.js';
import { ProfileStore } from '../services/profiles.js';
import { SafeStorageSecretStore, type SecretStore } from '../services/secrets.js';
import { loadWindowState } from '../app/window-state.js';
import { testLogger } from './helpers.js';

const BAD = {
  'not JSON': '{"id": "d_1", "te',
  'the wrong shape': JSON.stringify({ id: 'd_1', name: 7, text: ['x'], params: 'big', remotes: 'r', bounds: 'b', templates: 1 }),
};

let dir: string;
let warnings: string[];
const onWarning = (w: Error) => {
  if (w.name === CORRUPT_FILE_WARNING) warnings.push(w.message);
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ps-corrupt-'));
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
  rmSync(dir, { recursive: true, force: true });
});

/** Writes the bad file; after the read, checks it was set aside (content kept) and reported. */
async function expectSetAside(file: string, content: string) {
  await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
  expect(existsSync(file)).toBe(false);
  expect(readFileSync(`${file}.corrupt`, 'utf8')).toBe(content);
  expect(warnings).toEqual([expect.stringContaining(file)]);
}
const put = (file: string, content: string) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  return file;
};

const goodDraft = { id: 'd_2', name: 'Kept', text: 'Still here', templateId: 'newsroom', voiceId: 'en-US-Ava', params: {}, createdAt: '2026-11-23T10:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z' };
const goodJob = {
  id: 'job_1', status: 'completed', text: 'Hi', templateId: 'newsroom', voiceId: 'en-US-Ava',
  params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.5, y: 0.5 } }, progress: 1,
  createdAt: 'a', updatedAt: 'a', startedAt: null, finishedAt: null, output: null, error: null,
};

describe.each(Object.entries(BAD))('a file that is %s', (_, content) => {
  it('drafts: the draft is left out of the list and not found; the others stay', async () => {
    const drafts = new DraftStore(dir);
    const file = put(join(dir, 'd_1.json'), content);
    put(join(dir, 'd_2.json'), JSON.stringify(goodDraft));
    expect((await drafts.list()).map((d) => d.id)).toEqual(['d_2']);
    await expectSetAside(file, content);
    await expect(drafts.get('d_1')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('outbox: the item is left out; the others are still sent', async () => {
    const outbox = new Outbox({ dir, clientFor: () => Promise.reject(new Error('unused')), onChange: () => undefined, onSent: () => undefined, log: testLogger() });
    const file = put(join(dir, 'bad.json'), content);
    const good = { id: 'good', profileId: 'local', request: { text: 'Hi', templateId: 'newsroom', voiceId: 'en-US-Ava' }, createdAt: 'a', attempts: 1, lastError: null };
    put(join(dir, 'good.json'), JSON.stringify(good));
    expect((await outbox.list()).map((i) => i.id)).toEqual(['good']);
    await expectSetAside(file, content);
  });

  it('profiles: the built-in profiles are offered', async () => {
    const memory: SecretStore = { storage: 'memory', get: async () => null, set: async () => undefined, delete: async () => true };
    const profiles = new ProfileStore({ dataDir: dir, secrets: memory, env: null, editable: true, local: true });
    const file = put(join(dir, 'profiles.json'), content);
    expect(await profiles.state()).toEqual({ profiles: [expect.objectContaining({ id: 'local', kind: 'local' })], activeId: 'local' });
    await expectSetAside(file, content);
  });

  it('job-list cache and titles: no cached list, no titles', async () => {
    const cache = new JobsCache(dir);
    const file = put(join(dir, 'p.json'), content);
    expect(await cache.read('p')).toBeNull();
    await expectSetAside(file, content);
    warnings = [];
    const titles = put(join(dir, 'p.titles.json'), content === BAD['not JSON'] ? content : JSON.stringify({ job_1: 5 }));
    await cache.loadTitles('p');
    expect(cache.withTitle('p', { ...goodJob, status: 'completed' } as never).title).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(existsSync(`${titles}.corrupt`)).toBe(true);
  });

  it('catalog cache: no cached catalogs', async () => {
    const file = put(join(dir, 'p.json'), content);
    expect(await new CatalogCache(dir).read('p')).toBeNull();
    await expectSetAside(file, content);
  });

  it('encrypted key file: no key is set (it is asked for again), nothing throws', async () => {
    const safe = { isEncryptionAvailable: () => true, encryptString: (s: string) => Buffer.from(s), decryptString: (b: Buffer) => b.toString() };
    const file = put(join(dir, 'keys.json'), content === BAD['not JSON'] ? content : JSON.stringify({ local: 42 }));
    const written = readFileSync(file, 'utf8');
    expect(await new SafeStorageSecretStore(safe, file).get('local')).toBeNull();
    await expectSetAside(file, written);
  });

  it('window state: the default window, centred', async () => {
    const file = put(join(dir, 'window-state.json'), content);
    const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] } as never;
    expect(await loadWindowState(dir, screen)).toEqual({ bounds: { x: 0, y: 0, width: 1280, height: 820 }, maximized: false, centered: true });
    await expectSetAside(file, content);
  });
});

it('a missing file is simply empty: nothing is reported', async () => {
  expect(await new CatalogCache(dir).read('nobody')).toBeNull();
  expect(await new DraftStore(join(dir, 'none')).list()).toEqual([]);
  await new Promise((r) => setImmediate(r));
  expect(warnings).toEqual([]);
});
