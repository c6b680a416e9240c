// `npm run bench -- ui [--jobs 10000] [--runs 5]`: the renderer in Debian Chromium.
// Builds the renderer with the project's vite.config.ts, serves it from a throwaway static
// server, and gives the page an in-memory `window.studio` (this measures the UI, not the
// render API). Every figure is reported against a baseline measured in the same run:
//   bundle        gzipped first-screen bytes (HTML + JS + CSS) vs the 300 KB goal
//   startup       navigation → interactive editor, vs navigation → load of a bare page
//   job list      first render / filter with N jobs, vs the same UI with 100 jobs
//   scroll        frame intervals while scrolling N jobs, vs scrolling a bare tall page
//   drag          main-thread work per pointer move (handler + redraw), vs an empty handler
import { createServer, type Server } from 'node:http';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright';
import { build } from 'vite';
import { publicTemplate, TEMPLATES } from '../shared/scene/catalog.js';
import { SCENE_FONTS } from '../shared/scene/fonts.js';
import { rendererDirs, rendererFile } from '../electron/services/renderer-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, '.bench/ui-dist');
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.json': 'application/json',
};

/** Serves the build as the app does: its fonts come from resources/fonts. */
function serve(dir: string): Promise<{ server: Server; url: string }> {
  const dirs = rendererDirs(root, dir);
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/blank.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>blank</title><p>blank</p>');
      return;
    }
    const file = rendererFile(dirs, path === '/' ? '/index.html' : path);
    if (!file) return void res.writeHead(403).end();
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

/** First-screen bytes: index.html and the JS/CSS it references (fonts and art load later). */
function bundleSize(): { gzip: number; raw: number; files: string[]; lazyGzip: number } {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  let gzip = gzipSync(html).length;
  let raw = html.length;
  for (const f of refs) {
    const b = readFileSync(join(outDir, f));
    raw += b.length;
    gzip += gzipSync(b, { level: 9 }).length;
  }
  let lazyGzip = 0;
  for (const f of readdirSync(join(outDir, 'assets'))) {
    if (refs.includes(`assets/${f}`) || f.endsWith('.map')) continue;
    const p = join(outDir, 'assets', f);
    if (statSync(p).isFile()) lazyGzip += gzipSync(readFileSync(p)).length;
  }
  const { fonts } = rendererDirs(root);
  for (const f of SCENE_FONTS) lazyGzip += gzipSync(readFileSync(join(fonts, f.file))).length;
  return { gzip, raw, files: refs, lazyGzip };
}

/** The in-page bridge double: catalogs from resources/, drafts in memory, `count` jobs. */
function fakeStudio(arg: { templates: unknown[]; voices: unknown[]; count: number }) {
  const statuses = ['completed', 'completed', 'completed', 'failed', 'canceled', 'queued', 'rendering'] as const;
  const words = ['quarterly', 'update', 'launch', 'lesson', 'welcome', 'product', 'team', 'news', 'briefing', 'recap'];
  const now = Date.now();
  const templates = arg.templates as { id: string }[];
  const jobs = Array.from({ length: arg.count }, (_, i) => {
    const status = statuses[i % statuses.length]!;
    const t = new Date(now - i * 60_000).toISOString();
    return {
      id: `job_${String(arg.count - i).padStart(26, '0')}`,
      status,
      text: `Script ${i}: the ${words[i % 10]} ${words[(i * 7) % 10]} for week ${i % 52}.`,
      templateId: templates[i % templates.length]!.id,
      voiceId: 'en-US-Ava',
      params: { aspectRatio: '16:9', avatar: { scale: 0.6, x: 0.5, y: 0.58 } },
      progress: status === 'completed' ? 1 : status === 'rendering' ? 0.4 : 0,
      createdAt: t,
      updatedAt: t,
      startedAt: null,
      finishedAt: null,
      output: status === 'completed' ? { videoUrl: '', captionsUrl: '', thumbnailUrl: '', durationSeconds: 12, width: 1280, height: 720, sizeBytes: 1e6 } : null,
      error: status === 'failed' ? { code: 'encode_failed', message: 'ffmpeg stopped' } : null,
    };
  });
  const drafts = new Map<string, Record<string, unknown>>();
  let n = 0;
  const handlers: Record<string, (i: Record<string, unknown>) => unknown> = {
    'app.info': () => ({ version: 'bench', shell: 'web', platform: 'linux' }),
    'profiles.list': () => ({ profiles: [{ id: 'local', name: 'Local studio', kind: 'local', baseUrl: null, keyHeader: 'bearer' }], activeId: 'local' }),
    'studio.status': () => ({ state: 'running', baseUrl: 'http://127.0.0.1:1', restarts: 0, error: null }),
    'key.status': () => ({ profileId: 'local', set: true, storage: 'memory', warning: null }),
    'catalogs.get': () => ({ templates: arg.templates, voices: arg.voices, fromCache: false }),
    'outbox.list': () => [],
    'drafts.list': () => [...drafts.values()].map((d) => ({ id: d.id, name: d.name, excerpt: '', updatedAt: d.updatedAt })),
    'drafts.get': (i) => drafts.get(i.id as string),
    'drafts.save': (i) => {
      const id = (i.id as string) ?? `d${++n}`;
      const d = { ...i, id, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
      drafts.set(id, d);
      return d;
    },
    'jobs.list': (i) => {
      const status = (i?.status as string[] | undefined) ?? [];
      const q = ((i?.q as string | undefined) ?? '').toLowerCase();
      const list = jobs.filter((j) => (!status.length || status.includes(j.status)) && (!q || j.text.toLowerCase().includes(q)));
      const counts = { queued: 0, rendering: 0, completed: 0, failed: 0, canceled: 0 };
      for (const j of jobs) counts[j.status]++;
      return { jobs: list, nextCursor: null, counts, fromCache: false };
    },
  };
  (window as unknown as { studio: unknown }).studio = {
    call: async (m: string, i: Record<string, unknown>) => {
      const h = handlers[m];
      if (!h) throw { code: 'unsupported', message: `${m} is not in the bench double` };
      return h(i ?? {});
    },
    subscribe: () => () => {},
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (v: number) => `${v.toFixed(2)} ms`;

async function openStudio(browser: Browser, url: string, count: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
  page.on('crash', () => console.error('  page crashed'));
  page.on('console', (m) => process.env.BENCH_DEBUG && console.error(`  console ${m.type()}: ${m.text()}`));
  const catalog = (f: string) => JSON.parse(readFileSync(join(root, 'resources', f), 'utf8'));
  const templates = TEMPLATES.map((t) => publicTemplate(t, ''));
  const voices = (catalog('voices.json').voices as Record<string, unknown>[]).map((v) => ({ ...v, sampleUrl: '', aliases: [v.numericId] }));
  // tsx keeps function names with a `__name` helper that does not exist inside the page.
  await page.addInitScript('globalThis.__name = (f) => f;');
  await page.addInitScript(fakeStudio, { templates, voices, count });
  await page.goto(url);
  await page.waitForSelector('[data-app-state="loaded"]');
  return page;
}

/** ms from navigation start until the editor is loaded and accepts typing. */
async function startup(browser: Browser, url: string): Promise<number> {
  const page = await openStudio(browser, url, 0);
  await page.getByLabel('Narration script').focus();
  const t = await page.evaluate(() => performance.now());
  await page.close();
  return t;
}

async function blankLoad(browser: Browser, url: string): Promise<number> {
  const page = await browser.newPage();
  await page.addInitScript('globalThis.__name = (f) => f;');
  await page.goto(`${url}/blank.html`);
  const t = await page.evaluate(() => performance.now());
  await page.close();
  return t;
}

/** Jobs tab click → rows painted; then a status filter → rows painted. */
async function jobList(browser: Browser, url: string, count: number): Promise<{ first: number; filter: number; rows: number }> {
  const page = await openStudio(browser, url, count);
  const first = await page.evaluate(async () => {
    const t0 = performance.now();
    [...document.querySelectorAll('nav button')].find((b) => b.textContent?.startsWith('Jobs'))!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    while (!document.querySelector('[data-job-id]')) await new Promise((r) => requestAnimationFrame(r));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    return performance.now() - t0;
  });
  const rows = await page.locator('[data-job-id]').count();
  const filter = await page.evaluate(async () => {
    const before = document.querySelector('[data-job-id]')!.getAttribute('data-job-id');
    const t0 = performance.now();
    (document.querySelector('[data-testid="chip-failed"]') as HTMLElement).click();
    while (document.querySelector('[data-job-id]')?.getAttribute('data-job-id') === before) await new Promise((r) => requestAnimationFrame(r));
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    return performance.now() - t0;
  });
  await page.close();
  return { first, filter, rows };
}

/** Frame intervals while scrolling `selector` by 240 px per frame for 150 frames. */
async function scrollFrames(page: Page, selector: string): Promise<number[]> {
  return page.evaluate(async (sel) => {
    const el = document.querySelector(sel) as HTMLElement;
    const times: number[] = [];
    await new Promise<void>((done) => {
      let i = 0;
      const step = (t: number) => {
        times.push(t);
        el.scrollTop += 240;
        if (++i < 150) requestAnimationFrame(step);
        else done();
      };
      requestAnimationFrame(step);
    });
    return times.slice(1).map((t, k) => t - times[k]!);
  }, selector);
}

async function scroll(browser: Browser, url: string, count: number): Promise<{ list: number[]; bare: number[] }> {
  const page = await openStudio(browser, url, count);
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: /^Jobs/ }).click();
  await page.waitForSelector('[data-job-id]');
  const list = await scrollFrames(page, '[data-testid="job-list"]');
  await page.evaluate((h) => {
    document.body.innerHTML = `<div id="bare" style="height:700px;overflow:auto"><div style="height:${h}px"></div></div>`;
  }, count * 64);
  const bare = await scrollFrames(page, '#bare');
  await page.close();
  return { list, bare };
}

/** Main-thread ms per pointer move on the presenter: the move handler plus the frame's redraw. */
async function drag(browser: Browser, url: string): Promise<{ work: number[]; empty: number[]; mutations: number }> {
  const page = await openStudio(browser, url, 0);
  await page.waitForTimeout(500); // presenter art decoded
  const measure = (target: string) =>
    page.evaluate(async (sel) => {
      const el = document.querySelector(sel) as HTMLElement;
      const r = el.getBoundingClientRect();
      const canvas = document.querySelector('[data-testid="stage-scene"]') as HTMLElement;
      const x0 = r.left + r.width * Number(canvas.dataset.x ?? 0.5);
      const y0 = r.top + r.height * Number(canvas.dataset.y ?? 0.5);
      const opts = (x: number, y: number) => ({ bubbles: true, pointerId: 7, clientX: x, clientY: y, button: 0, buttons: 1, pointerType: 'mouse', isPrimary: true });
      let mutations = 0;
      const mo = new MutationObserver((m) => (mutations += m.length));
      mo.observe(document.getElementById('root')!, { subtree: true, childList: true, attributes: true, characterData: true, attributeFilter: ['class', 'style', 'aria-checked'] });
      el.dispatchEvent(new PointerEvent('pointerdown', opts(x0, y0)));
      const work: number[] = [];
      for (let i = 1; i <= 120; i++) {
        const frame = await new Promise<number>((r) => requestAnimationFrame(r));
        void frame;
        const t0 = performance.now();
        el.dispatchEvent(new PointerEvent('pointermove', opts(x0 + Math.sin(i / 9) * 120, y0 + Math.cos(i / 11) * 40)));
        const handler = performance.now() - t0;
        // The redraw runs in the next frame's callbacks, ahead of ours (registered later).
        const drawn = await new Promise<number>((res) => requestAnimationFrame((ts) => res(performance.now() - Math.max(ts, t0 + handler))));
        work.push(handler + Math.max(0, drawn));
      }
      el.dispatchEvent(new PointerEvent('pointerup', opts(x0, y0)));
      mo.disconnect();
      return { work, mutations };
    }, target);
  const real = await measure('[data-testid="stage"]');
  await page.evaluate(() => {
    const d = document.createElement('div');
    d.id = 'bench-empty';
    d.style.cssText = 'position:fixed;left:0;top:0;width:400px;height:300px';
    d.addEventListener('pointermove', () => {});
    document.body.append(d);
  });
  const empty = await measure('#bench-empty');
  await page.close();
  return { work: real.work, empty: empty.work, mutations: real.mutations };
}

export const USAGE = 'npm run bench -- ui [--jobs 10000] [--runs 5] [--only startup,list,scroll,drag]';
export const OPTIONS = {
  jobs: { type: 'string', default: '10000' },
  runs: { type: 'string', default: '5' },
  only: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: OPTIONS });
  const want = (part: string) => !values.only || values.only.split(',').includes(part);
  const count = Number(values.jobs);
  const runs = Number(values.runs);
  console.log(`ui bench: building the renderer (vite.config.ts) into ${outDir}`);
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } });
  const b = bundleSize();
  console.log(`bundle      first screen ${(b.gzip / 1024).toFixed(1)} KB gzipped (${(b.raw / 1024).toFixed(0)} KB raw; ${b.files.join(', ')})`);
  console.log(`            = ${(b.gzip / (300 * 1024)).toFixed(2)}× the 300 KB goal; loaded later: fonts + art ${(b.lazyGzip / 1024).toFixed(0)} KB gzipped`);

  const { server, url } = await serve(outDir);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    if (want('startup')) {
    const starts: number[] = [];
    const blanks: number[] = [];
    for (let i = 0; i < runs; i++) {
      blanks.push(await blankLoad(browser, url));
      starts.push(await startup(browser, url));
    }
    const s = median(starts);
    const bl = median(blanks);
    console.log(`startup     interactive editor ${ms(s)} (median of ${runs}); bare page ${ms(bl)}; ratio ${(s / bl).toFixed(1)}×`);
    }
    if (want('list')) {

    const big: { first: number; filter: number; rows: number }[] = [];
    const small: { first: number; filter: number; rows: number }[] = [];
    for (let i = 0; i < runs; i++) {
      small.push(await jobList(browser, url, 100));
      big.push(await jobList(browser, url, count));
    }
    const f1 = median(big.map((x) => x.first));
    const f0 = median(small.map((x) => x.first));
    const g1 = median(big.map((x) => x.filter));
    const g0 = median(small.map((x) => x.filter));
    console.log(`job list    first render ${count} jobs ${ms(f1)} vs 100 jobs ${ms(f0)}: ${(f1 / f0).toFixed(2)}× (rows in the DOM: ${big[0]!.rows})`);
    console.log(`            status filter ${count} jobs ${ms(g1)} vs 100 jobs ${ms(g0)}: ${(g1 / g0).toFixed(2)}×`);
    }
    if (want('scroll')) {

    const sc = await scroll(browser, url, count);
    const p = (xs: number[]) => `p50 ${ms(pct(xs, 0.5))}, p95 ${ms(pct(xs, 0.95))}, max ${ms(Math.max(...xs))}`;
    const slow = (xs: number[]) => xs.filter((x) => x > 25).length;
    console.log(`scroll      ${count} jobs: ${p(sc.list)}; frames over 25 ms: ${slow(sc.list)}/${sc.list.length}`);
    console.log(`            bare page: ${p(sc.bare)}; frames over 25 ms: ${slow(sc.bare)}/${sc.bare.length}; p95 ratio ${(pct(sc.list, 0.95) / pct(sc.bare, 0.95)).toFixed(2)}×`);
    }
    if (want('drag')) {

    const d = await drag(browser, url);
    console.log(`drag        work per pointer move p50 ${ms(pct(d.work, 0.5))}, p95 ${ms(pct(d.work, 0.95))} (goal < 4 ms); empty handler p50 ${ms(pct(d.empty, 0.5))}`);
    console.log(`            ratio p50 ${(pct(d.work, 0.5) / Math.max(0.01, pct(d.empty, 0.5))).toFixed(1)}×; React DOM mutations during 120 moves: ${d.mutations}`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}
