// Neural voice packs, downloaded on demand by the studio (never at build time) from the URLs in
// the catalog, each file checked by size and SHA-256 before it is renamed into the cache, so a
// pack in the cache is always a verified one and works offline from then on. One download per
// pack at a time; its progress is what GET /api/voices/{id}/pack reports.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, copyFile, link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { VoicePackStatus } from '../../../shared/contract/index.js';
import { EngineError } from '../types.js';
import { packOf, type EngineVoice, type PackFile } from './voices.js';

/** A download that receives nothing for this long fails (a dead connection, not a slow one). */
const STALL_MS = 30_000;

interface Download {
  received: number;
  /** Never rejects: a failure is kept (and answered as the pack's state) instead. */
  settled: Promise<{ dir: string } | { error: EngineError }>;
}

/** Errors that mean no connection could be made (name lookup, refused, unreachable, timed out). */
const NO_CONNECTION = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET']);

export class VoicePacks {
  private readonly downloads = new Map<string, Download>();
  private readonly failures = new Map<string, string>();

  constructor(readonly root: string) {}

  /** The pack's folder: named for the voice and its model's hash, so a new model is a new pack. */
  private dir(voice: EngineVoice): string {
    const model = packOf(voice)!.files.find((f) => f.name === 'model.onnx')!;
    return join(this.root, `${voice.id}-${model.sha256.slice(0, 16)}`);
  }

  private async installed(voice: EngineVoice): Promise<boolean> {
    const dir = this.dir(voice);
    try {
      await Promise.all(packOf(voice)!.files.map((f) => access(join(dir, f.name))));
      return true;
    } catch {
      return false;
    }
  }

  async status(voice: EngineVoice): Promise<VoicePackStatus> {
    const pack = packOf(voice);
    if (!pack) return { state: 'builtin' };
    const total = pack.files.reduce((n, f) => n + f.bytes, 0);
    const d = this.downloads.get(voice.id);
    if (d) return { state: 'downloading', receivedBytes: d.received, totalBytes: total };
    if (await this.installed(voice)) return { state: 'installed', receivedBytes: total, totalBytes: total };
    const error = this.failures.get(voice.id);
    return error ? { state: 'failed', receivedBytes: 0, totalBytes: total, error } : { state: 'missing', receivedBytes: 0, totalBytes: total };
  }

  /** Starts the download when the pack is neither installed nor on its way; answers at once. */
  async install(voice: EngineVoice): Promise<VoicePackStatus> {
    // Started in the background: a failure is kept and answered as the pack's state ('failed', with its reason).
    if (packOf(voice) && !this.downloads.has(voice.id) && !(await this.installed(voice))) this.begin(voice);
    return this.status(voice);
  }

  /** The folder of the verified pack, downloading it first when needed. */
  async ensure(voice: EngineVoice): Promise<string> {
    if (!packOf(voice)) throw new EngineError('internal_error', `${voice.id} has no voice pack.`);
    const r = await this.begin(voice).settled;
    if ('error' in r) throw r.error;
    return r.dir;
  }

  /**
   * Links (or, where the file system has no hard links, copies) `file` from another pack that
   * holds the same bytes (size and SHA-256 checked again, through a temporary name); false when
   * none does.
   */
  private async copyFromOtherPack(file: PackFile, dir: string, dest: string): Promise<boolean> {
    let packs: string[];
    try {
      packs = await readdir(this.root);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false; // no pack yet
      throw e;
    }
    for (const other of packs) {
      const path = join(this.root, other, file.name);
      if (join(this.root, other) === dir) continue;
      try {
        if ((await stat(path)).size !== file.bytes || (await sha256Of(path)) !== file.sha256) continue;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue; // that pack has no such file (or is no folder)
        throw e;
      }
      const part = `${dest}.${process.pid}.part`;
      try {
        await link(path, part); // one copy on disk for every pack (a Kokoro model is ~325 MB)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EEXIST') throw e;
        await rm(part, { force: true }); // a leftover of an interrupted copy (EEXIST)
        await copyFile(path, part); // a file system without hard links
      }
      await rename(part, dest);
      return true;
    }
    return false;
  }

  /** The pack's download under way, or a new one; its failure is kept for status(). */
  private begin(voice: EngineVoice): Download {
    const running = this.downloads.get(voice.id);
    if (running) return running;
    const dir = this.dir(voice);
    // Registered before the first await, so a status asked right after reports the download.
    const d: Download = { received: 0, settled: Promise.resolve({ dir }) };
    d.settled = (async () => {
      if (await this.installed(voice)) return { dir };
      this.failures.delete(voice.id);
      await mkdir(dir, { recursive: true });
      for (const f of packOf(voice)!.files) {
        const before = d.received;
        const dest = join(dir, f.name);
        // Kokoro's voices share one model: a verified copy in another pack is copied, not downloaded.
        if (await this.copyFromOtherPack(f, dir, dest)) d.received = before + f.bytes;
        else await download(f, dest, (n) => (d.received = before + n));
      }
      return { dir };
    })()
      .catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        this.failures.set(voice.id, message);
        return { error: new EngineError('speech_failed', `The voice pack of ${voice.name} could not be installed: ${message}`) };
      })
      .finally(() => this.downloads.delete(voice.id));
    this.downloads.set(voice.id, d);
    return d;
  }
}

/** The SHA-256 of a file on disk. */
async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Downloads one file to `dest` through a temporary name; rejects on a wrong size or hash. */
export async function download(file: PackFile, dest: string, onBytes: (n: number) => void): Promise<void> {
  try {
    await access(dest);
    onBytes(file.bytes);
    return; // verified on an earlier, interrupted install of the same pack
  } catch {
    // not there yet
  }
  const part = `${dest}.${process.pid}.part`;
  const abort = new AbortController();
  let timer = setTimeout(() => abort.abort(), STALL_MS);
  try {
    const res = await fetch(file.url, { signal: abort.signal, redirect: 'follow' });
    if (!res.ok || !res.body) throw new Error(`${file.name}: the server answered ${res.status} ${res.statusText}`.trim());
    const hash = createHash('sha256');
    const out = createWriteStream(part);
    let n = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        clearTimeout(timer);
        timer = setTimeout(() => abort.abort(), STALL_MS);
        n += chunk.length;
        if (n > file.bytes) throw new Error(`${file.name} is larger than the ${file.bytes} bytes the catalog gives`);
        hash.update(chunk);
        if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
        onBytes(n);
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    }
    if (n !== file.bytes) throw new Error(`${file.name} has ${n} bytes, the catalog gives ${file.bytes}`);
    const sha = hash.digest('hex');
    if (sha !== file.sha256) throw new Error(`${file.name} does not match its SHA-256 in the catalog (got ${sha.slice(0, 12)}…)`);
    await rename(part, dest);
  } catch (e) {
    await rm(part, { force: true });
    if (abort.signal.aborted) throw new Error(`${file.name}: the download stopped (nothing received for ${STALL_MS / 1000} s)`, { cause: e });
    if (e instanceof TypeError) {
      const cause = e.cause as (Error & { code?: string }) | undefined;
      const host = new URL(file.url).host;
      // No network, or the host unreachable: what to do about it, with the system's own words.
      const offline = cause?.code && NO_CONNECTION.has(cause.code) ? ': check the internet connection, then retry' : '';
      throw new Error(`${file.name} could not be downloaded from ${host}${offline} (${cause?.message ?? e.message})`, { cause: e });
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
