// The app's own settings (settings.json in the data folder), as opposed to a profile's: what
// the creator set once for every video. Every field is optional (absent: the default), so a
// file of an older release reads as it is and a new field needs no new version.
import { join } from 'node:path';
import { z } from 'zod';
import { LexiconEntry, SOUND_LIMITS } from '../../shared/contract/index.js';
import type { AppSettings } from '../../shared/bridge/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';

const StoredSettings = z.object({
  version: z.literal(1),
  /** The pronunciation dictionary: sent as every job's `lexicon` (extension `sound`). */
  pronunciation: z.array(LexiconEntry).max(SOUND_LIMITS.lexiconMax).optional(),
});
type StoredSettings = z.infer<typeof StoredSettings>;

export class AppSettingsStore {
  private readonly file: string;
  private cache: StoredSettings | null = null;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'settings.json');
  }

  private async load(): Promise<StoredSettings> {
    this.cache ??= await readJson(this.file, StoredSettings, { version: 1 as const });
    return this.cache;
  }

  async get(): Promise<AppSettings> {
    const s = await this.load();
    return { pronunciation: s.pronunciation ?? [] };
  }

  /** Sets the fields given; the others stay. */
  async save(patch: Partial<AppSettings>): Promise<AppSettings> {
    const next: StoredSettings = { ...(await this.load()), ...patch, version: 1 };
    await writeJsonAtomic(this.file, next);
    this.cache = next;
    return this.get();
  }
}
