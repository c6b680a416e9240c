// Profiles: the built-in local studio, remote render APIs the user adds, and an environment
// profile from RENDER_API_BASE_URL + RENDER_API_KEY that is neither written down nor shown.
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Profile } from '../../shared/bridge/index.js';
import type { BridgeParsedInput, KeyHeader, KeyStatus, ProfilesState } from '../../shared/bridge/index.js';
import { readJson, writeJsonAtomic } from './atomic-file.js';
import { BridgeFailure } from './errors.js';
import type { SecretStore } from './secrets.js';

export const LOCAL_PROFILE_ID = 'local';
export const ENV_PROFILE_ID = 'env';

export interface EnvProfileConfig {
  baseUrl: string;
  key: string;
  keyHeader: KeyHeader;
}

/** Reads the environment profile; the key stays in this object and in memory only. */
export function envProfileFrom(env: NodeJS.ProcessEnv): EnvProfileConfig | null {
  const baseUrl = env.RENDER_API_BASE_URL?.trim();
  const key = env.RENDER_API_KEY?.trim();
  if (!baseUrl || !key) return null;
  const keyHeader: KeyHeader = env.RENDER_API_KEY_HEADER?.toLowerCase() === 'x-api-key' ? 'x-api-key' : 'bearer';
  return { baseUrl: baseUrl.replace(/\/+$/, ''), key, keyHeader };
}

/**
 * What the key's storage means for this profile, or null when nothing needs doing. The local
 * studio makes a fresh key for itself at every start, so keeping it in memory costs nothing;
 * a remote profile's key kept in memory must be pasted again after a restart.
 */
function keyWarning(p: Profile, set: boolean, storage: SecretStore['storage']): string | null {
  if (storage !== 'memory' || p.kind !== 'remote') return null;
  return set
    ? `No keychain is available on this computer: the key for “${p.name}” is kept only while the app runs. Paste it again after the app restarts.`
    : `No keychain is available on this computer: a key pasted for “${p.name}” is kept only while the app runs.`;
}

/** A remote profile as profiles.json keeps it: the Profile without its kind, with its URL. */
const StoredRemote = Profile.omit({ kind: true }).extend({ baseUrl: z.string() });
type StoredRemote = z.infer<typeof StoredRemote>;
// Either field may be missing from a file of an older release.
const StoredProfiles = z.object({ remotes: z.array(StoredRemote).default([]), activeId: z.string().nullable().default(null) });
type StoredProfiles = z.infer<typeof StoredProfiles>;

export interface ProfileStoreOptions {
  dataDir: string;
  secrets: SecretStore;
  env: EnvProfileConfig | null;
  /** False in the web shell: browsers may not add render APIs or keys to the server. */
  editable: boolean;
  /** False when the local studio is not offered (e.g. a web shell running on an env profile). */
  local: boolean;
}

export class ProfileStore {
  private readonly file: string;
  private cache: StoredProfiles | null = null;
  constructor(private readonly opts: ProfileStoreOptions) {
    this.file = join(opts.dataDir, 'profiles.json');
  }

  private async load(): Promise<StoredProfiles> {
    if (!this.cache) {
      this.cache = await readJson(this.file, StoredProfiles, StoredProfiles.parse({}));
    }
    return this.cache;
  }
  private async persist(s: StoredProfiles): Promise<void> {
    this.cache = s;
    if (this.opts.editable) await writeJsonAtomic(this.file, s);
  }

  private builtIns(): Profile[] {
    const out: Profile[] = [];
    if (this.opts.env) out.push({ id: ENV_PROFILE_ID, name: 'Environment', kind: 'env', baseUrl: null, keyHeader: this.opts.env.keyHeader });
    if (this.opts.local) out.push({ id: LOCAL_PROFILE_ID, name: 'Local studio', kind: 'local', baseUrl: null, keyHeader: 'bearer' });
    return out;
  }

  async state(): Promise<ProfilesState> {
    const s = await this.load();
    const profiles = [...this.builtIns(), ...s.remotes.map((r): Profile => ({ ...r, kind: 'remote' }))];
    const activeId = profiles.some((p) => p.id === s.activeId) ? s.activeId! : profiles[0]!.id;
    return { profiles, activeId };
  }

  async active(): Promise<Profile> {
    const st = await this.state();
    return st.profiles.find((p) => p.id === st.activeId)!;
  }

  async get(id: string): Promise<Profile> {
    const p = (await this.state()).profiles.find((x) => x.id === id);
    if (!p) throw new BridgeFailure('not_found', `no profile "${id}"`);
    return p;
  }

  private requireEditable(): void {
    if (!this.opts.editable) throw new BridgeFailure('forbidden', 'profiles and keys are configured on the server in the web shell');
  }

  async save(input: BridgeParsedInput<'profiles.save'>): Promise<Profile> {
    this.requireEditable();
    const s = await this.load();
    if (input.id && (input.id === LOCAL_PROFILE_ID || input.id === ENV_PROFILE_ID)) {
      throw new BridgeFailure('invalid_input', 'the built-in profiles cannot be changed', [{ path: 'id', message: 'is a built-in profile' }]);
    }
    let remote = input.id ? s.remotes.find((r) => r.id === input.id) : undefined;
    if (input.id && !remote) throw new BridgeFailure('not_found', `no profile "${input.id}"`);
    const baseUrl = input.baseUrl.replace(/\/+$/, '');
    if (remote) Object.assign(remote, { name: input.name, baseUrl, keyHeader: input.keyHeader });
    else {
      remote = { id: `p_${randomBytes(6).toString('hex')}`, name: input.name, baseUrl, keyHeader: input.keyHeader };
      s.remotes.push(remote);
    }
    if (input.key) await this.opts.secrets.set(remote.id, input.key);
    await this.persist(s);
    return { ...remote, kind: 'remote' };
  }

  async remove(id: string): Promise<ProfilesState> {
    this.requireEditable();
    const s = await this.load();
    if (!s.remotes.some((r) => r.id === id)) {
      throw new BridgeFailure(id === LOCAL_PROFILE_ID || id === ENV_PROFILE_ID ? 'invalid_input' : 'not_found', `profile "${id}" cannot be removed`);
    }
    s.remotes = s.remotes.filter((r) => r.id !== id);
    if (s.activeId === id) s.activeId = null;
    // A keychain that cannot be reached keeps the removed profile's key; no profile uses it again (ids are random).
    await this.opts.secrets.delete(id).catch(() => false);
    await this.persist(s);
    return this.state();
  }

  async select(id: string): Promise<ProfilesState> {
    await this.get(id);
    const s = await this.load();
    s.activeId = id;
    await this.persist(s);
    return this.state();
  }

  /** Base URL, key header and key of a remote profile (privileged side only). */
  async remoteConnection(id: string): Promise<{ baseUrl: string; keyHeader: KeyHeader; key: string | null }> {
    const r = (await this.load()).remotes.find((x) => x.id === id);
    if (!r) throw new BridgeFailure('not_found', `no profile "${id}"`);
    return { baseUrl: r.baseUrl, keyHeader: r.keyHeader, key: await this.opts.secrets.get(r.id) };
  }

  async keyStatus(profileId: string): Promise<KeyStatus> {
    const p = await this.get(profileId);
    if (p.kind === 'env') return { profileId, set: true, storage: 'environment', warning: null };
    const { secrets } = this.opts;
    let set: boolean;
    try {
      set = (await secrets.get(profileId)) !== null;
    } catch {
      throw new BridgeFailure('keychain_unavailable', 'the keychain could not be read');
    }
    return { profileId, set, storage: set ? secrets.storage : 'none', warning: keyWarning(p, set, secrets.storage) };
  }

  async setKey(profileId: string, key: string): Promise<KeyStatus> {
    this.requireEditable();
    const p = await this.get(profileId);
    if (p.kind !== 'remote') throw new BridgeFailure('invalid_input', 'the key of this profile is managed by the app', [{ path: 'profileId', message: 'is not a remote profile' }]);
    await this.opts.secrets.set(profileId, key);
    return this.keyStatus(profileId);
  }

  async clearKey(profileId: string): Promise<KeyStatus> {
    this.requireEditable();
    const p = await this.get(profileId);
    if (p.kind !== 'remote') throw new BridgeFailure('invalid_input', 'the key of this profile is managed by the app', [{ path: 'profileId', message: 'is not a remote profile' }]);
    await this.opts.secrets.delete(profileId);
    return this.keyStatus(profileId);
  }
}
