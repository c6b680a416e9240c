// CSV import through the bridge: each row checked with the rules of a submit (the contract's
// schema, the catalog, the template's aspect ratios) and reported by its line in the file, errors
// named by column; nothing is created while any row is bad; then the rows become drafts (or
// jobs, queued while offline).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { CsvRowReport, DraftSummary, OutboxItem } from '../../shared/bridge/index.js';
import { documentOfRequest } from '../../shared/contract/index.js';
import { Connections } from '../services/connections.js';
import { parseCsv } from '../services/csv.js';
import { importCsv } from '../services/csv-import.js';
import { DraftStore } from '../services/drafts.js';
import { dispatch } from '../services/dispatch.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createStudio } from '../services/studio.js';
import { ROOT, createKey, startApi, tempDir, testLogger, type RunningApi } from './helpers.js';

async function offlineStudio() {
  const dataDir = tempDir();
  const studio = createStudio({
    shell: 'electron', version: '0.1.0', dataDir, resourcesDir: join(ROOT, 'resources'),
    profiles: new ProfileStore({ dataDir, secrets: new MemorySecretStore(), env: null, editable: true, local: false }),
    env: null, localStudio: null, userId: null, mediaBase: 'studio-media://app', log: testLogger(), clientOptions: { retries: 0, timeoutMs: 1000 },
  });
  // A render API that is not running: catalogs come from the bundled resources.
  const p = await dispatch(studio.handlers, 'profiles.save', { name: 'Down', baseUrl: 'http://127.0.0.1:9', keyHeader: 'bearer', key: 'k' });
  await dispatch(studio.handlers, 'profiles.select', { id: (p as { value: { id: string } }).value.id });
  return studio;
}

const CSV = [
  'Text,Template,Voice,Aspect,X,Y,Scale',
  '"Hello, world — welcome!",newsroom,en-US-Ava,16:9,0.5,0.5,0.6',
  'Numeric voice works,classroom,101,,,,',
  ',newsroom,en-US-Ava,,,,',
  'Bad numbers,newsroom,en-US-Ava,16:9,left,0.5,0.6',
  'Out of range,newsroom,en-US-Ava,21:9,0.5,0.5,9',
  'Unknown template,no-such,en-US-Ava,,,,',
  '"Multi ""quoted""',
  'line",podcast-studio,de-DE-Katja,1:1,,,',
  'Classroom has no 9:16,classroom,en-US-Ava,9:16,,,',
].join('\r\n');
const GOOD = CSV.split('\r\n').filter((_, i) => [0, 1, 2, 7, 8].includes(i)).join('\r\n');

describe('CSV import', () => {
  it('parses quotes, doubled quotes and line breaks inside fields', () => {
    expect(parseCsv('a,b\n"x, y","say ""hi""\nthere"\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"\nthere'],
    ]);
  });

  it('reports every bad row by its line, errors named by column, and creates nothing', async () => {
    const studio = await offlineStudio();
    const r = await dispatch(studio.handlers, 'jobs.importCsv', { csv: CSV, mode: 'drafts' });
    expect(r.ok).toBe(true);
    const rows = (r as { value: { rows: CsvRowReport[] } }).value.rows;
    // Lines of the file: the header is line 1, the quoted script of line 8 runs on to line 9.
    expect(rows.map((x) => [x.row, x.errors.length > 0])).toEqual([
      [2, false], [3, false], [4, true], [5, true], [6, true], [7, true], [8, false], [10, true],
    ]);
    expect(rows.every((x) => !x.ok && !x.draftId)).toBe(true);
    expect(rows[2]!.errors).toContainEqual({ path: 'text', message: 'must not be empty' });
    expect(rows[3]!.errors[0]).toMatchObject({ path: 'x', message: expect.stringContaining('must be a number') });
    expect(rows[4]!.errors.map((e) => e.path).sort()).toEqual(['aspect', 'scale']);
    expect(rows[5]!.errors).toEqual([{ path: 'template', message: 'unknown template "no-such"' }]);
    expect(rows[7]!.errors).toEqual([{ path: 'aspect', message: 'the template "classroom" supports 16:9, 4:3, 1:1' }]);
    expect(((await dispatch(studio.handlers, 'drafts.list', {})) as { value: DraftSummary[] }).value).toHaveLength(0);

    const again = (await dispatch(studio.handlers, 'jobs.importCsv', { csv: GOOD, mode: 'drafts' })) as { value: { rows: CsvRowReport[] } };
    expect(again.value.rows.map((x) => [x.row, x.ok])).toEqual([[2, true], [3, true], [4, true]]);
    const drafts = (await dispatch(studio.handlers, 'drafts.list', {})) as { value: DraftSummary[] };
    expect(drafts.value).toHaveLength(3);
    expect(drafts.value.map((d) => d.excerpt)).toContain('Multi "quoted" line');
    await studio.close();
  });

  it('names missing and unknown header columns', async () => {
    const studio = await offlineStudio();
    const r = (await dispatch(studio.handlers, 'jobs.importCsv', { csv: 'text,voice,colour\nHi,en-US-Ava,red', mode: 'drafts' })) as { value: { rows: CsvRowReport[] } };
    expect(r.value.rows).toEqual([
      { row: 1, ok: false, draftId: null, jobId: null, errors: [{ path: 'template', message: 'column is missing from the header' }, { path: 'colour', message: expect.stringContaining('unknown column') }] },
    ]);
    await studio.close();
  });

  it('queues the rows as jobs while the render API is unreachable', async () => {
    const studio = await offlineStudio();
    const r = (await dispatch(studio.handlers, 'jobs.importCsv', { csv: 'text,template,voice\nOne,newsroom,en-US-Ava\nTwo,newsroom,en-US-Ava', mode: 'jobs' })) as { value: { rows: CsvRowReport[] } };
    expect(r.value.rows.map((x) => x.ok)).toEqual([true, true]);
    const outbox = (await dispatch(studio.handlers, 'outbox.list', undefined)) as { value: OutboxItem[] };
    expect(outbox.value.map((i) => i.request.text)).toEqual(['One', 'Two']);
    await studio.close();
  });
});

describe('importCsv, row by row into real drafts and the real render API', () => {
  const apiData = tempDir('ps-api-');
  let api: RunningApi;
  let connections: Connections;
  let profileId: string;
  beforeAll(async () => {
    const key = createKey(apiData, { user: 'alice' });
    api = await startApi(apiData);
    const profiles = new ProfileStore({ dataDir: tempDir(), secrets: new MemorySecretStore(), env: null, editable: true, local: false });
    profileId = (await profiles.save({ name: 'Team', baseUrl: api.url, keyHeader: 'bearer', key })).id;
    connections = new Connections({ profiles, env: null, localStudio: null, userId: null, clientOptions: { retries: 0 } });
  });
  afterAll(async () => {
    connections.close();
    await api.stop();
  });
  const rows = ['text,template,voice', '"Hello   there,\nfriends",newsroom,en-US-Ava', 'Second one,classroom,en-US-Ava'].join('\n');

  it('saves each row as a draft named after its script', async () => {
    const drafts = new DraftStore(tempDir());
    const r = await importCsv({ csv: rows, mode: 'drafts' }, {
      catalog: null,
      saveDraft: (req, name) => drafts.save(documentOfRequest(req, name)),
      submit: () => Promise.reject(new Error('not in drafts mode')),
    });
    expect(r.rows.map((x) => [x.row, x.ok])).toEqual([[2, true], [4, true]]);
    const saved = await drafts.get(r.rows[0]!.draftId!);
    expect(saved).toMatchObject({ name: 'Hello there, friends', templateId: 'newsroom', scenes: [{ text: 'Hello   there,\nfriends', background: null, presenter: true }] });
    expect((await drafts.list()).length).toBe(2);
  });

  it('submits each good row as a job; a row the API refuses is reported and the others still go', async () => {
    const client = await connections.client(profileId);
    let n = 0;
    const r = await importCsv({ csv: `${rows}\nUnknown voice,newsroom,xx-XX-Nobody`, mode: 'jobs' }, {
      catalog: null,
      saveDraft: () => Promise.reject(new Error('not in jobs mode')),
      submit: async (req) => ({ job: await client.submit(req, `csv-test-${process.pid}-${n++}`) }),
    });
    expect(r.rows.map((x) => [x.row, x.ok])).toEqual([[2, true], [4, true], [5, false]]);
    expect(r.rows[2]!.errors.length).toBeGreaterThan(0);
    const listed = await client.listJobs({ limit: 10 });
    expect(listed.jobs.map((j) => j.id).sort()).toEqual([r.rows[0]!.jobId, r.rows[1]!.jobId].sort());
  });
});
