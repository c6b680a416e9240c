// Which render API a profile talks to, and how: one API client per profile, built once and kept
// until the profile, its key or the local studio's address changes, and what that API can do
// (capabilities, learned from its health answer). Also the active profile's id, kept until the
// profiles change, so a bridge call asks the profile store at most once.
import type { Capabilities, Profile } from '../../shared/bridge/index.js';
import { DEFAULT_DEADLINE_MS, RenderApiClient, type ClientOptions } from './api-client.js';
import { BridgeFailure } from './errors.js';
import type { LocalStudio } from './local-studio.js';
import { LOCAL_PROFILE_ID, type EnvProfileConfig, type ProfileStore } from './profiles.js';

export const ALL_CAPABILITIES: Capabilities = { cancel: true, delete: true, events: true, catalogs: true, media: true, idempotency: true, title: true, assets: true, scenes: true, output: true, brand: true, sound: true, presenters: true };
export const FOREIGN_CAPABILITIES: Capabilities = { cancel: false, delete: false, events: false, catalogs: false, media: false, idempotency: false, title: false, assets: false, scenes: false, output: false, brand: false, sound: false, presenters: false };

export interface ConnectionDeps {
  profiles: ProfileStore;
  env: EnvProfileConfig | null;
  localStudio: LocalStudio | null;
  /** X-User-Id sent with the local studio's and the environment profile's service keys. */
  userId: string | null;
  clientOptions?: ClientOptions;
}

export interface Connection {
  kind: Profile['kind'];
  client: RenderApiClient;
}

export class Connections {
  private readonly connections = new Map<string, Promise<Connection>>();
  private readonly capabilities = new Map<string, Capabilities>();
  private active: Promise<string> | null = null;
  /** Bumped by every change, so a build that started before it is not kept after it. */
  private generation = 0;
  private localUrl: string | null = null;
  private readonly unwatch: (() => void) | undefined;

  constructor(private readonly deps: ConnectionDeps) {
    // The local studio restarted (new port) or stopped: its next call waits for it again.
    this.unwatch = deps.localStudio?.onStatusChange((s) => {
      if (s.state !== 'running' || s.baseUrl !== this.localUrl) this.forget(LOCAL_PROFILE_ID);
    });
  }

  /** The active profile's id. */
  activeId(): Promise<string> {
    if (!this.active) {
      const p = (this.active = this.deps.profiles.state().then((s) => s.activeId));
      p.catch(() => this.active === p && (this.active = null));
    }
    return this.active;
  }

  /** The profile's connection; a failed build is not kept, so the next call tries again. */
  connection(profileId: string): Promise<Connection> {
    let c = this.connections.get(profileId);
    if (!c) {
      const generation = this.generation;
      c = this.build(profileId);
      this.connections.set(profileId, c);
      c.then(
        () => generation !== this.generation && this.connections.get(profileId) === c && this.connections.delete(profileId),
        () => this.connections.get(profileId) === c && this.connections.delete(profileId),
      );
    }
    return c;
  }

  async client(profileId: string): Promise<RenderApiClient> {
    return (await this.connection(profileId)).client;
  }

  /** What the profile's API supports: all of it for the local studio, else from its health answer. */
  async capabilitiesOf(profileId: string): Promise<Capabilities> {
    const known = this.capabilities.get(profileId);
    if (known) return known;
    const { kind, client } = await this.connection(profileId);
    if (kind === 'local') return ALL_CAPABILITIES;
    const generation = this.generation;
    const h = await client.health();
    const has = (e: string) => h.extensions.includes(e);
    const caps = h.ours ? { ...ALL_CAPABILITIES, title: has('title'), assets: has('assets'), scenes: has('scenes'), output: has('output'), brand: has('brand'), sound: has('sound'), presenters: has('presenters') } : FOREIGN_CAPABILITIES;
    if (generation === this.generation) this.capabilities.set(profileId, caps);
    return caps;
  }

  /** Capabilities learned so far (none asked for). */
  knownCapabilities(profileId: string): Capabilities | undefined {
    return this.capabilities.get(profileId);
  }

  async require(profileId: string, cap: keyof Capabilities, what: string): Promise<void> {
    if (!(await this.capabilitiesOf(profileId))[cap]) throw new BridgeFailure('unsupported', `this render API does not support ${what}`);
  }

  /** The profile, its key or its address changed: build its client and learn its capabilities again. */
  forget(profileId: string): void {
    this.generation++;
    this.connections.delete(profileId);
    this.capabilities.delete(profileId);
    this.active = null;
  }

  /** Another profile was chosen: the active id is asked for again. */
  forgetActive(): void {
    this.active = null;
  }

  close(): void {
    this.unwatch?.();
  }

  private async build(profileId: string): Promise<Connection> {
    const { deps } = this;
    const p = await deps.profiles.get(profileId);
    const opts = deps.clientOptions;
    if (p.kind === 'env' && deps.env) {
      const env = deps.env;
      return { kind: p.kind, client: new RenderApiClient({ baseUrl: env.baseUrl, keyHeader: env.keyHeader, key: async () => env.key, userId: deps.userId }, opts) };
    }
    if (p.kind === 'local') {
      const studio = deps.localStudio;
      if (!studio) throw new BridgeFailure('offline', 'the local studio is not available here');
      // A studio being replaced answers within a call's deadline or the call goes on without it
      // (the cache, the outbox); a first start may take longer (its key is made).
      const wait = studio.status().state === 'restarting' ? (opts?.deadlineMs ?? DEFAULT_DEADLINE_MS) : undefined;
      const baseUrl = await studio.ready(wait).catch((e: Error) => {
        const st = studio.status();
        throw new BridgeFailure('offline', st.state === 'restarting' && st.error ? st.error : `the local studio is not running: ${e.message}`);
      });
      this.localUrl = baseUrl;
      // The studio makes a fresh key at every start: asked for at call time.
      return { kind: p.kind, client: new RenderApiClient({ baseUrl, keyHeader: 'bearer', key: () => studio.key(), userId: deps.userId }, opts) };
    }
    const c = await deps.profiles.remoteConnection(profileId);
    return { kind: p.kind, client: new RenderApiClient({ baseUrl: c.baseUrl, keyHeader: c.keyHeader, key: async () => c.key }, opts) };
  }
}
