// Neural voice packs, downloaded on demand by the studio (never at build time) from the URLs in
// the catalog, each file checked by size and SHA-256 before it is renamed into the cache, so a
// pack in the cache is always a verified one and works offline from then on. One download per
// pack at a time; its progress is what GET /api/voices/{id}/pack reports.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { VoicePackStatus } from '../../../shared/contract/index.js';
import { EngineError } from '../types.js';
import type { EngineVoice, PackFile } from './voices.js';

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
    const model = voice.piper!.files.find((f) => f.name === 'model.onnx')!;
    return join(this.root, `${voice.id}-${model.sha256.slice(0, 16)}`);
  }

  private async installed(voice: EngineVoice): Promise<boolean> {
    const dir = this.dir(voice);
    try {
      await Promise.all(voice.piper!.files.map((f) => access(join(dir, f.name))));
      return true;
    } catch {
      return false;
    }
  }

  async status(voice: EngineVoice): Promise<VoicePackStatus> {
    if (!voice.piper) return { state: 'builtin' };
    const total = voice.piper.files.reduce((n, f) => n + f.bytes, 0);
    const d = this.downloads.get(voice.id);
    if (d) return { state: 'downloading', receivedBytes: d.received, totalBytes: total };
    if (await this.installed(voice)) return { state: 'installed', receivedBytes: total, totalBytes: total };
    const error = this.failures.get(voice.id);
    return error ? { state: 'failed', receivedBytes: 0, totalBytes: total, error } : { state: 'missing', receivedBytes: 0, totalBytes: total };
  }

  /** Starts the download when the pack is neither installed nor on its way; answers at once. */
  async install(voice: EngineVoice): Promise<VoicePackStatus> {
    // Started in the background: a failure is kept and answered as the pack's state ('failed', with its reason).
    if (voice.piper && !this.downloads.has(voice.id) && !(await this.installed(voice))) this.begin(voice);
    return this.status(voice);
  }

  /** The folder of the verified pack, downloading it first when needed. */
  async ensure(voice: EngineVoice): Promise<string> {
    if (!voice.piper) throw new EngineError('internal_error', `${voice.id} has no voice pack.`);
    const r = await this.begin(voice).settled;
    if ('error' in r) throw r.error;
    return r.dir;
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
      for (const f of voice.piper!.files) {
        const before = d.received;
        await download(f, join(dir, f.name), (n) => (d.received = before + n));
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
