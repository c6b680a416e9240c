// Profiles (local studio, remote render APIs), key status per profile, local studio status.
// Keys go in through key.set / profiles.save and are never read back.
import { create } from 'zustand';
import type { AppInfo, BridgeError, ConnectionTest, KeyStatus, Profile, StudioStatus } from '../../shared/bridge/index.js';
import { call, describeError } from '../lib/bridge.js';

interface SettingsState {
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
  load(): Promise<void>;
  loadKey(profileId: string): Promise<void>;
  test(profileId: string): Promise<void>;
}

export const useSettings = create<SettingsState>((set, get) => ({
  profiles: [],
  activeId: null,
  keys: {},
  tests: {},
  studio: null,
  info: null,
  online: true,
  problem: null,
  error: null,
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
            capabilities: { cancel: false, delete: false, events: false, catalogs: false, media: false, idempotency: false, title: false, assets: false, scenes: false },
            error: { code: 'error', message: describeError(e) },
          },
        },
      });
    }
  },
}));
