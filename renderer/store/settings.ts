// Profiles (local studio, remote render APIs), key status per profile, local studio status.
// Keys go in through key.set / profiles.save and are never read back.
import type { AppInfo, BridgeError, Capabilities, ConnectionTest, KeyStatus, Profile, StudioStatus } from '../../shared/bridge/index.js';
import { call, describeError } from '../lib/bridge.js';
import type { SliceApi } from './slice.js';

export interface SettingsState {
  profiles: Profile[];
  activeId: string | null;
  keys: Record<string, KeyStatus>;
  tests: Record<string, ConnectionTest | { pending: true }>;
  studio: StudioStatus | null;
  info: AppInfo | null;
  online: boolean;
  /** Why the render API cannot be used (offline, key refused, …); null while online. */
  problem: BridgeError | null;
  error: string | null;
  /** What the active render API offers (from its health); null while not known (offline, not asked yet). */
  capabilities: Capabilities | null;
  load(): Promise<void>;
  /** Asks the active render API what it offers. */
  loadCapabilities(): Promise<void>;
  loadKey(profileId: string): Promise<void>;
  test(profileId: string): Promise<void>;
}

export const createSettingsSlice = ({ set, get }: SliceApi<SettingsState>): SettingsState => ({
  profiles: [],
  activeId: null,
  keys: {},
  tests: {},
  studio: null,
  info: null,
  online: true,
  problem: null,
  error: null,
  capabilities: null,
  async load() {
    const [profiles, studio, info] = await Promise.allSettled([
      call('profiles.list', undefined),
      call('studio.status', undefined),
      call('app.info', undefined),
    ]);
    set({
      ...(profiles.status === 'fulfilled' ? { profiles: profiles.value.profiles, activeId: profiles.value.activeId } : {}),
      ...(studio.status === 'fulfilled' ? { studio: studio.value } : {}),
      ...(info.status === 'fulfilled' ? { info: info.value } : {}),
      error: profiles.status === 'rejected' ? describeError(profiles.reason) : null,
    });
    for (const p of get().profiles) void get().loadKey(p.id);
  },
  async loadKey(profileId) {
    try {
      const k = await call('key.status', { profileId });
      set({ keys: { ...get().keys, [profileId]: k } });
    } catch {
      /* shown as "unknown" */
    }
  },
  async loadCapabilities() {
    const id = get().activeId;
    if (!id) return;
    await get().test(id);
    const t = get().tests[id];
    // A failed test says nothing about the API: its capabilities stay unknown.
    if (get().activeId === id) set({ capabilities: t && 'ok' in t && t.ok ? t.capabilities : null });
  },
  async test(profileId) {
    set({ tests: { ...get().tests, [profileId]: { pending: true } } });
    try {
      const r = await call('profiles.test', { id: profileId });
      set({ tests: { ...get().tests, [profileId]: r } });
    } catch (e) {
      set({
        tests: {
          ...get().tests,
          [profileId]: {
            ok: false,
            version: null,
            capabilities: { cancel: false, delete: false, events: false, catalogs: false, media: false, idempotency: false, title: false, assets: false, scenes: false, output: false, brand: false, sound: false, presenters: false },
            error: { code: 'error', message: describeError(e) },
          },
        },
      });
    }
  },
});
