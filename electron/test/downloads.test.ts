// Downloads against the real render API over a socket, into real files: a finished download is
// the API's bytes under the chosen name with no `.part` left; a refused or canceled one leaves no
// file and says why in its last event; a leftover that cannot be removed is logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { RenderApiClient } from '../services/api-client.js';
import { Connections } from '../services/connections.js';
import { Downloads, type DownloadEvent } from '../services/downloads.js';
import { ProfileStore } from '../services/profiles.js';
import { MemorySecretStore } from '../services/secrets.js';
import { createKey, startApi, tempDir, testLogger, waitFor, type RunningApi } from './helpers.js';

const apiData = tempDir('ps-api-');
let api: RunningApi;
let client: RenderApiClient;
let key: string;
const events: DownloadEvent[] = [];
const log = testLogger();
const downloads = new Downloads({ emit: (e) => events.push(e), log, progressEveryMs: 0 });
const from = (path: string) => (signal: AbortSignal) => client.fetch('GET', path, { signal, headers: { accept: '*/*' }, streaming: true });
const end = (id: string) => waitFor(() => events.find((e) => e.downloadId === id && e.done), `the end of download ${id}`);

beforeAll(async () => {
  key = createKey(apiData, { user: 'alice' });
  api = await startApi(apiData);
  const profiles = new ProfileStore({ dataDir: tempDir(), secrets: new MemorySecretStore(), env: null, editable: true, local: false });
  const p = await profiles.save({ name: 'Team', baseUrl: api.url, keyHeader: 'bearer', key });
  client = await new Connections({ profiles, env: null, localStudio: null, userId: null, clientOptions: { retries: 0 } }).client(p.id);
});
afterAll(async () => {
  downloads.close();
  await api.stop();
});

describe('downloads', () => {
  it('writes the whole file under the chosen name and tells the progress', async () => {
    const path = join(tempDir('ps-downloads-'), 'newsroom.jpg');
    const id = downloads.start(path, from('/api/templates/newsroom/thumbnail.jpg'));
    const last = await end(id);
    expect(last.error).toBeNull();
    const direct = Buffer.from(await (await fetch(`${api.url}/api/templates/newsroom/thumbnail.jpg`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
    expect(readFileSync(path).equals(direct)).toBe(true);
    expect(existsSync(`${path}.part`)).toBe(false);
    expect(last.receivedBytes).toBe(direct.length);
    expect(() => downloads.cancel(id)).toThrow(/no running download/);
  });

  it('leaves no file when the API refuses, and logs nothing for the part never written', async () => {
    const path = join(tempDir('ps-downloads-'), 'missing.mp4');
    const before = log.lines.length;
    const last = await end(downloads.start(path, from('/api/jobs/no-such-job/video')));
    expect(last.error).toMatchObject({ code: 'not_found' });
    expect(existsSync(path) || existsSync(`${path}.part`)).toBe(false);
    expect(log.lines.length).toBe(before);
  });

  it('stops at once when canceled', async () => {
    const path = join(tempDir('ps-downloads-'), 'canceled.jpg');
    const id = downloads.start(path, from('/api/templates/newsroom/thumbnail.jpg'));
    downloads.cancel(id);
    expect((await end(id)).error).toEqual({ code: 'canceled', message: 'the download was canceled' });
    expect(existsSync(path) || existsSync(`${path}.part`)).toBe(false);
  });

  it('logs a leftover it cannot remove', async () => {
    const dir = tempDir('ps-downloads-');
    const path = join(dir, 'blocked.jpg');
    // A folder with content where the partial file would go: neither written nor removable.
    mkdirSync(`${path}.part`);
    writeFileSync(join(`${path}.part`, 'x'), 'x');
    const last = await end(downloads.start(path, from('/api/templates/newsroom/thumbnail.jpg')));
    expect(last.error).not.toBeNull();
    expect(existsSync(path)).toBe(false);
    expect(log.lines).toContainEqual(expect.stringMatching(/^warn: download: could not remove .*blocked\.jpg\.part: /));
  });
});
