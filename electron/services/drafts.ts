// Drafts: one JSON file per draft, written atomically so autosave on every keystroke can be
// interrupted (even by kill -9) without leaving a torn file. A draft is the video document plus
// its id and dates; files of an earlier document version are read into the current one.
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DraftInput, DraftSummary } from '../../shared/bridge/index.js';
import { DraftFile, DraftId, type Draft } from '../../shared/bridge/index.js';
import { documentExcerpt, documentText } from '../../shared/contract/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';
import { BridgeFailure } from './errors.js';


export function newDraftId(): string {
  return `d_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

export class DraftStore {
  /** Saves of one draft run one after another, so a slow autosave never overwrites a newer one. */
  private readonly queues = new Map<string, Promise<unknown>>();
  constructor(readonly dir: string) {}

  private serial<T>(id: string, work: () => Promise<T>): Promise<T> {
    // The previous save's failure was reported to its own caller; this one runs regardless.
    const next = (this.queues.get(id) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.queues.set(id, next);
    const clear = () => {
      if (this.queues.get(id) === next) this.queues.delete(id);
    };
    next.then(clear, clear);
    return next;
  }

  private file(id: string): string {
    if (!DraftId.safeParse(id).success) throw new BridgeFailure('invalid_input', 'draft ids are 1–64 letters, digits, _ or -', [{ path: 'id', message: 'is not a draft id' }]);
    return join(this.dir, `${id}.json`);
  }

  async get(id: string): Promise<Draft> {
    const d = await readJson(this.file(id), DraftFile, null);
    if (!d) throw new BridgeFailure('not_found', `no draft "${id}"`);
    return d;
  }

  save(input: DraftInput): Promise<Draft> {
    const id = input.id ?? newDraftId();
    return this.serial(id, () => this.write(id, input));
  }

  private async write(id: string, input: DraftInput): Promise<Draft> {
    const now = new Date().toISOString();
    const prev = input.id ? await readJson(this.file(id), DraftFile, null) : null;
    const { id: _id, ...doc } = input;
    const draft: Draft = { ...doc, id, createdAt: prev?.createdAt ?? now, updatedAt: now };
    await writeJsonAtomic(this.file(id), draft);
    return draft;
  }

  async remove(id: string): Promise<void> {
    try {
      await unlink(this.file(id));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new BridgeFailure('not_found', `no draft "${id}"`);
      throw e;
    }
  }

  async list(q?: string): Promise<DraftSummary[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    } catch {
      return [];
    }
    const needle = q?.trim().toLowerCase();
    const out: DraftSummary[] = [];
    for (const n of names) {
      const d = await readJson(join(this.dir, n), DraftFile, null);
      if (!d) continue;
      if (needle && !`${d.name}\n${documentText(d)}`.toLowerCase().includes(needle)) continue;
      out.push({ id: d.id, name: d.name, excerpt: documentExcerpt(d), updatedAt: d.updatedAt });
    }
    return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }
}
