// Extension `sound` through the HTTP API with the real engine: a pause tag is silence of its
// length in the narration (ffmpeg's silencedetect) and never a caption; a lexicon changes what
// the voice says while the captions keep the written word; SRT holds the WebVTT file's cues; bad
// pauses and lexicons are refused naming the field.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_EXTENSIONS, type Job } from '../../shared/contract/index.js';
import { createEngine } from '../engine/index.js';
import { parseVttWords } from '../engine/test/vtt-words.js';
import { call, errorCode, testServer, validRequest, waitFor, type TestServer } from './helpers.js';

let s: TestServer;
let key: string;
let files: string;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ps-sound-'));
  files = mkdtempSync(join(tmpdir(), 'ps-sound-files-'));
  const engine = await createEngine({ cacheDir: join(dataDir, 'engine-cache') });
  s = await testServer({ dataDir, engine, concurrency: 1 });
  key = await s.userKey('creator');
});
afterAll(async () => {
  await s.stop();
  rmSync(s.dataDir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

const settle = (id: string) =>
  waitFor(async () => {
    const j = (await call(`${s.url}/api/jobs/${id}`, { key })).body as Job;
    return ['completed', 'failed', 'canceled'].includes(j.status) ? j : null;
  }, 90_000);

async function render(json: object): Promise<Job> {
  const created = await call(`${s.url}/api/render`, { key, json: { templateId: 'newsroom', voiceId: 'en-US-Ava', params: { aspectRatio: '1:1' }, ...json } });
  expect(created.status).toBe(202);
  const job = await settle((created.body as Job).id);
  expect(job.error).toBeNull();
  return job;
}

async function fetchText(path: string): Promise<{ text: string; type: string | null; status: number }> {
  const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The silences ffmpeg finds in the video's sound (below -40 dBFS for 0.3 s or longer), in seconds. */
function silences(jobVideo: Buffer): { start: number; length: number }[] {
  const file = join(files, `v-${Math.random().toString(36).slice(2)}.mp4`);
  writeFileSync(file, jobVideo);
  const out = execFileSync('sh', ['-c', '"$0" -hide_banner -nostats -i "$1" -map 0:a -af silencedetect=noise=-40dB:d=0.3 -f null - 2>&1', process.env.FFMPEG_PATH ?? 'ffmpeg', file]).toString();
  return [...out.matchAll(/silence_end: ([\d.]+) \| silence_duration: ([\d.]+)/g)].map((m) => ({ start: Number(m[1]) - Number(m[2]), length: Number(m[2]) }));
}

/** Cue times and lines of an SRT file. */
function srtCues(srt: string): { start: number; end: number; text: string }[] {
  const t = (h: string, m: string, sec: string, ms: string) => Number(h) * 3600 + Number(m) * 60 + Number(sec) + Number(ms) / 1000;
  return srt.trim().split(/\r\n\r\n/).map((block) => {
    const [index, timing, ...lines] = block.split('\r\n');
    expect(index).toMatch(/^\d+$/);
    const m = /^(\d\d):(\d\d):(\d\d),(\d{3}) --> (\d\d):(\d\d):(\d\d),(\d{3})$/.exec(timing!)!;
    expect(m).not.toBeNull();
    return { start: t(m[1]!, m[2]!, m[3]!, m[4]!), end: t(m[5]!, m[6]!, m[7]!, m[8]!), text: lines.join('\n') };
  });
}

describe('pauses and pronunciation in a render', () => {
  const text = 'Our results for Q3 are in. <break time="3s"/> Revenue grew again.';
  let withLexicon: Job;
  let plain: Job;
  let vtt: string;
  let srt: { text: string; type: string | null; status: number };

  beforeAll(async () => {
    withLexicon = await render({ text, lexicon: [{ text: 'q3', say: 'the third quarter of the fiscal year' }] });
    plain = await render({ text });
    vtt = (await fetchText(`/api/jobs/${withLexicon.id}/captions.vtt`)).text;
    srt = await fetchText(`/api/jobs/${withLexicon.id}/captions.srt`);
  }, 200_000);

  it('announces the extension and keeps the lexicon on the job', async () => {
    expect(API_EXTENSIONS).toContain('sound');
    expect((await call(`${s.url}/api/health`)).body.extensions).toContain('sound');
    expect(withLexicon.lexicon).toEqual([{ text: 'q3', say: 'the third quarter of the fiscal year' }]);
    expect(plain.lexicon).toBeUndefined();
    expect(withLexicon.text).toBe(text);
  });

  it('is silent for the 3 s of the pause, between the two sentences', async () => {
    const res = await fetch(`${s.url}${withLexicon.output!.videoUrl}`, { headers: { authorization: `Bearer ${key}` } });
    const found = silences(Buffer.from(await res.arrayBuffer()));
    const pause = found.find((x) => x.length >= 2.5);
    expect(pause, JSON.stringify(found)).toBeDefined();
    expect(pause!.length).toBeGreaterThan(2.9);
    expect(pause!.length).toBeLessThan(3.2);
    // Between the words before and after it, as the captions time them.
    const words = parseVttWords(vtt).cues.flatMap((c) => c.words);
    const revenue = words.find((w) => w.text === 'Revenue')!;
    expect(revenue.start).toBeGreaterThanOrEqual(pause!.start + pause!.length - 0.15);
    expect(revenue.start).toBeLessThan(pause!.start + pause!.length + 0.3);
  });

  it('says the lexicon’s words, while captions keep the written word and never show the tag', () => {
    // "the third quarter of the fiscal year" takes far longer to say than "Q3".
    expect(withLexicon.output!.durationSeconds - plain.output!.durationSeconds).toBeGreaterThan(1);
    const parsed = parseVttWords(vtt);
    expect(parsed.errors).toEqual([]);
    const words = parsed.cues.flatMap((c) => c.words.map((w) => w.text));
    expect(words).toEqual(['Our', 'results', 'for', 'Q3', 'are', 'in.', 'Revenue', 'grew', 'again.']);
    expect(vtt).not.toMatch(/break|fiscal/i);
  });

  it('serves the same cues as SRT', () => {
    expect(srt.status).toBe(200);
    expect(srt.type).toBe('application/x-subrip; charset=utf-8');
    expect(srt.text).not.toMatch(/break|fiscal|</i);
    const fromVtt = parseVttWords(vtt).cues;
    const cues = srtCues(srt.text);
    expect(cues.map((c) => c.text.replace(/\n/g, ' '))).toEqual(fromVtt.map((c) => c.words.map((w) => w.text).join(' ')));
    cues.forEach((c, i) => {
      expect(c.start).toBeCloseTo(fromVtt[i]!.start, 3);
      expect(c.end).toBeCloseTo(fromVtt[i]!.end, 3);
    });
  });
});

describe('sound requests that are refused', () => {
  const refused = async (json: object) => {
    const res = await call(`${s.url}/api/render`, { key, json: { ...validRequest, ...json } });
    expect(res.status).toBe(422);
    expect(errorCode(res)).toBe('validation_failed');
    return (res.body.error.details as { path: string; message: string }[]);
  };

  it('a pause over 10 s, naming the text or the scene', async () => {
    expect(await refused({ text: 'Wait for it. <break time="11s"/> Now.' })).toEqual([{ path: 'text', message: expect.stringMatching(/at most 10 s/) }]);
    expect(await refused({ text: undefined, scenes: [{ text: 'One.' }, { text: 'Two <break time="10500ms"/> three.' }] })).toEqual([
      { path: 'scenes[1].text', message: expect.stringMatching(/at most 10 s/) },
    ]);
  });

  it('a malformed pause tag', async () => {
    for (const bad of ['<break time="3"/>', '<break time=3s/>', '<break/>', '<break time="fast"/>', '<break time="2s"']) {
      const details = await refused({ text: `Hello ${bad} there.` });
      expect(details, bad).toEqual([{ path: 'text', message: expect.stringContaining('<break time="2s"/>') }]);
    }
  });

  it('a script that is only pauses', async () => {
    expect(await refused({ text: '<break time="2s"/>' })).toEqual([{ path: 'text', message: expect.stringMatching(/letter or digit/) }]);
  });

  it('a lexicon of 501 entries, or with a malformed entry', async () => {
    const many = Array.from({ length: 501 }, (_, i) => ({ text: `word${i}`, say: `say ${i}` }));
    expect(await refused({ lexicon: many })).toEqual([{ path: 'lexicon', message: 'must hold at most 500 entries' }]);
    expect((await refused({ lexicon: [{ text: 'SQL' }] })).map((d) => d.path)).toEqual(['lexicon[0].say']);
    expect((await refused({ lexicon: [{ text: 'SQL', say: 'sequel' }, { text: ' ', say: 'x' }] })).map((d) => d.path)).toEqual(['lexicon[1].text']);
    expect((await refused({ lexicon: [{ text: 'SQL', say: 'sequel', ipa: 'x' }] })).map((d) => d.path)).toEqual(['lexicon[0].ipa']);
    expect((await refused({ lexicon: { SQL: 'sequel' } })).map((d) => d.path)).toEqual(['lexicon']);
  });

  it('SRT before the job is completed is not ready', async () => {
    const created = await call(`${s.url}/api/render`, { key, json: { ...validRequest, text: 'A job that is canceled before it renders.' } });
    const id = (created.body as Job).id;
    await call(`${s.url}/api/jobs/${id}/cancel`, { key, method: 'POST' });
    const res = await call(`${s.url}/api/jobs/${id}/captions.srt`, { key });
    expect(res.status).toBe(404);
    expect(errorCode(res)).toBe('not_ready');
  });
});
