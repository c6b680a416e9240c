// The built-in local studio: runs the render API (server/ CLI) as a child process on
// 127.0.0.1 with a random port and a service key created on first run and kept in the keychain.
// Health-checked; restarted with backoff if it dies; stopped with the app. The child holds the
// other end of a pipe on its stdin: closing it is the graceful stop on every OS (Windows has no
// SIGTERM), and the OS closes it when the app dies, so the studio never outlives the app.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { processCommandLine } from './process-info.js';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { StudioStatus } from '../../shared/bridge/index.js';
import type { SecretStore } from './secrets.js';
import { LOCAL_PROFILE_ID } from './profiles.js';

export interface ServerCommand {
  /** Executable (node, or Electron with ELECTRON_RUN_AS_NODE=1). */
  cmd: string;
  /** Arguments before the CLI's own (e.g. ['--import', 'tsx', 'server/cli.ts']). */
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface LocalStudioOptions {
  command: ServerCommand;
  dataDir: string;
  secrets: SecretStore;
  /** The user the desktop acts as with its service key. */
  userId: string;
  onStatus?: (s: StudioStatus) => void;
  /** Server output, for the app log (the key never appears: `keys create` output is not logged). */
  log?: (line: string) => void;
  healthIntervalMs?: number;
  startTimeoutMs?: number;
  /** How long a studio that stopped answering gets to exit on SIGTERM before SIGKILL. */
  killGraceMs?: number;
}

/** What the status says while a studio that stopped answering is replaced. */
export const NOT_RESPONDING = 'Local studio not responding — restarting';

/** The label of the key the app makes for its own studio; making a new one revokes the old ones. */
export const DESKTOP_KEY_LABEL = 'Presenter Studio desktop';
/** How long the studio lets running renders go on after the app quits before requeueing them. */
const STUDIO_GRACE_MS = 1500;

const URL_IN_LINE = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+/;

export class LocalStudio {
  private child: ChildProcess | null = null;
  private st: StudioStatus = { state: 'stopped', baseUrl: null, restarts: 0, error: null };
  private waiters: { resolve: (url: string) => void; reject: (e: Error) => void }[] = [];
  private healthTimer: NodeJS.Timeout | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private starting: Promise<void> | null = null;
  private quickFailures = 0;
  /** Set while a studio that stopped answering is being killed: its exit is not a crash. */
  private hung = false;
  private readonly statusListeners = new Set<(s: StudioStatus) => void>();

  constructor(private readonly o: LocalStudioOptions) {}

  status(): StudioStatus {
    return { ...this.st };
  }

  /** Status changes (starting, running, restarting…); returns an unsubscribe. */
  onStatusChange(listener: (s: StudioStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private set(patch: Partial<StudioStatus>) {
    this.st = { ...this.st, ...patch };
    this.o.onStatus?.(this.status());
    for (const l of [...this.statusListeners]) l(this.status());
    if (this.st.state === 'running' && this.st.baseUrl) for (const w of this.waiters.splice(0)) w.resolve(this.st.baseUrl);
    if (this.st.state === 'failed' || this.st.state === 'stopped') for (const w of this.waiters.splice(0)) w.reject(new Error(this.st.error ?? 'the local studio is not running'));
  }

  /** The base URL once the studio runs; starts it if needed. */
  ready(timeoutMs = 30_000): Promise<string> {
    if (this.st.state === 'running' && this.st.baseUrl) return Promise.resolve(this.st.baseUrl);
    if (this.st.state === 'stopped' || this.st.state === 'failed') void this.start();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('the local studio did not start in time')), timeoutMs);
      t.unref?.();
      this.waiters.push({ resolve: (u) => (clearTimeout(t), resolve(u)), reject: (e) => (clearTimeout(t), reject(e)) });
    });
  }

  /** Where the studio's key lives (profiles read its status from the same store). */
  get secrets(): SecretStore {
    return this.o.secrets;
  }

  key(): Promise<string | null> {
    return this.o.secrets.get(LOCAL_PROFILE_ID);
  }

  private runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const c = spawn(this.o.command.cmd, [...this.o.command.args, ...args], {
        cwd: this.o.command.cwd,
        env: studioEnv(this.o.command.env),
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
      let stdout = '';
      let stderr = '';
      c.stdout.on('data', (d) => (stdout += d));
      c.stderr.on('data', (d) => (stderr += d));
      c.on('error', (e) => resolve({ code: -1, stdout, stderr: stderr + e.message }));
      c.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  /**
   * Creates a service key with the server CLI and stores it; the key is never logged. The app
   * owns this studio's key store, so the keys it made before (lost with a keychain that only
   * lived in memory, or with a reset keychain) are revoked in the same step (`--replace`).
   */
  private async createKey(): Promise<string> {
    const r = await this.runCli(['keys', 'create', '--service', '--label', DESKTOP_KEY_LABEL, '--replace', '--data', this.o.dataDir]);
    const key = r.stdout.trim().split('\n').pop()?.trim();
    if (r.code !== 0 || !key) throw new Error(`could not create the local studio key (exit ${r.code}): ${r.stderr.trim().split('\n').pop() ?? ''}`);
    await this.o.secrets.set(LOCAL_PROFILE_ID, key);
    return key;
  }

  private get pidFile(): string {
    return join(this.o.dataDir, 'studio.pid');
  }

  /**
   * A studio left running by an app that crashed (or was killed) would hold the data folder:
   * stop it. PIDs are reused (after a reboot above all), so only a process whose command line
   * is still our server on this data folder is touched, on every OS; one we cannot read is left.
   */
  private async reapOrphan(): Promise<void> {
    let pid: number;
    try {
      pid = Number(readFileSync(this.pidFile, 'utf8').trim());
    } catch {
      return; // no pid file: nothing was left running
    }
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) return;
    const cmdline = await processCommandLine(pid);
    if (!cmdline || !cmdline.includes(' serve ') || !cmdline.includes(this.o.dataDir)) return;
    try {
      process.kill(pid, 'SIGKILL');
      this.o.log?.(`local studio: stopped a studio (pid ${pid}) left running by an earlier session`);
    } catch (e) {
      this.o.log?.(`local studio: could not stop the studio (pid ${pid}) left by an earlier session: ${(e as Error).message}`);
    }
  }

  /** Starts the studio (once: a second call shares the first); resolves when it runs or has failed. */
  start(): Promise<void> {
    if (this.starting) return this.starting;
    if (this.child) return Promise.resolve();
    this.stopping = false;
    this.starting = this.startOnce().finally(() => (this.starting = null));
    return this.starting;
  }

  /** One start; after each step a stop() that came meanwhile wins (stop waits for this to end). */
  private async startOnce(): Promise<void> {
    this.set({ state: this.st.restarts ? 'restarting' : 'starting', error: null });
    try {
      await this.reapOrphan();
      if (this.stopping) return;
      if (!(await this.key())) await this.createKey();
      if (this.stopping) return;
      const url = await this.spawnServer();
      if (this.stopping) return;
      if (!(await this.keyWorks(url))) {
        // The data folder was reset since the key was made: make a new one.
        await this.createKey();
      }
      if (this.stopping) return;
      this.quickFailures = 0;
      this.set({ state: 'running', baseUrl: url });
      this.watchHealth();
    } catch (e) {
      if (this.stopping) return;
      this.o.log?.(`local studio: ${(e as Error).message}`);
      this.killChild();
      this.scheduleRestart((e as Error).message);
    }
  }

  private spawnServer(): Promise<string> {
    return new Promise((resolve, reject) => {
      const args = ['serve', '--port', '0', '--data', this.o.dataDir, '--exit-with-parent', '--grace-ms', String(STUDIO_GRACE_MS)];
      const child = spawn(this.o.command.cmd, [...this.o.command.args, ...args], {
        cwd: this.o.command.cwd,
        env: { ...studioEnv(this.o.command.env), HOST: '127.0.0.1' },
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
      // A write after the child is gone (EPIPE) says no more than its exit event, which is
      // handled; anything else is logged.
      child.stdin!.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') this.o.log?.(`local studio: its stdin pipe failed: ${e.message}`);
      });
      this.child = child;
      if (child.pid) {
        mkdirSync(this.o.dataDir, { recursive: true });
        writeFileSync(this.pidFile, String(child.pid));
      }
      let found = false;
      const timer = setTimeout(() => reject(new Error('the local studio printed no ready line in time')), this.o.startTimeoutMs ?? 30_000);
      const onLine = (line: string) => {
        this.o.log?.(line);
        const m = !found && URL_IN_LINE.exec(line);
        if (m) {
          found = true;
          clearTimeout(timer);
          resolve(m[0]);
        }
      };
      createInterface({ input: child.stdout! }).on('line', onLine);
      createInterface({ input: child.stderr! }).on('line', (l) => this.o.log?.(l));
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.child === child) this.child = null;
        if (!found) reject(new Error(`the local studio exited before it was ready (${signal ?? `code ${code}`})`));
        else if (!this.stopping) {
          this.stopHealth();
          const hung = this.hung;
          this.hung = false;
          this.scheduleRestart(hung ? NOT_RESPONDING : `the local studio stopped unexpectedly (${signal ?? `code ${code}`})`);
        }
      });
    });
  }

  private async keyWorks(url: string): Promise<boolean> {
    const key = await this.key();
    if (!key) return false;
    const res = await fetch(`${url}/api/jobs?limit=1`, {
      headers: { authorization: `Bearer ${key}`, 'x-user-id': this.o.userId },
      signal: AbortSignal.timeout(5000),
    }).catch(() => null); // no answer at all: the health check, not this, decides whether the studio runs
    return !res || res.status !== 401;
  }

  private watchHealth() {
    this.stopHealth();
    let failures = 0;
    this.healthTimer = setInterval(async () => {
      const url = this.st.baseUrl;
      if (!url || this.st.state !== 'running') return;
      const ok = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(3000) })
        .then((r) => r.ok)
        .catch(() => false); // no answer counts as a failed check: two in a row restart the studio
      if (this.healthTimer === null || this.st.state !== 'running' || this.st.baseUrl !== url) return; // stopped or replaced meanwhile
      failures = ok ? 0 : failures + 1;
      if (failures >= 2) this.replaceHung();
    }, this.o.healthIntervalMs ?? 5000);
    this.healthTimer.unref?.();
  }

  /**
   * The studio is there but does not answer (stopped, deadlocked): say so at once, then end it;
   * its exit schedules the restart.
   */
  private replaceHung() {
    this.stopHealth();
    this.o.log?.('local studio: health check failed twice, restarting');
    this.set({ state: 'restarting', baseUrl: null, error: NOT_RESPONDING });
    this.hung = this.child !== null;
    this.killChild();
  }

  private stopHealth() {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = null;
  }

  private scheduleRestart(error: string) {
    if (this.stopping) return;
    this.quickFailures++;
    if (this.quickFailures > 5) {
      this.set({ state: 'failed', baseUrl: null, error });
      return;
    }
    this.set({ state: 'restarting', baseUrl: null, error, restarts: this.st.restarts + 1 });
    const delay = Math.min(10_000, 300 * 2 ** (this.quickFailures - 1));
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.st = { ...this.st, state: 'stopped' };
      void this.start();
    }, delay);
    this.restartTimer.unref?.();
  }

  /** SIGTERM, then SIGKILL after a grace: a stopped or deadlocked process never handles SIGTERM. */
  private killChild() {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGTERM');
    const graceMs = this.o.killGraceMs ?? 5000;
    const t = setTimeout(() => {
      if (c.exitCode !== null || c.signalCode !== null) return;
      this.o.log?.(`local studio: did not exit within ${graceMs} ms of SIGTERM, killing it`);
      c.kill('SIGKILL');
    }, graceMs);
    t.unref?.();
    c.once('exit', () => clearTimeout(t));
  }

  /**
   * Stops the child gracefully on every OS: its stdin is closed (it requeues what it was
   * rendering and exits), and only if it has not exited after `graceMs` is it killed.
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true;
    this.stopHealth();
    if (this.restartTimer) clearTimeout(this.restartTimer);
    // A start under way ends at its next step; whatever it spawned is this.child by then.
    if (this.starting) await this.starting;
    const c = this.child;
    if (c && c.exitCode === null && c.signalCode === null) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          this.o.log?.(`local studio: did not stop within ${graceMs} ms, killing it`);
          c.kill('SIGKILL');
        }, graceMs);
        c.once('exit', () => (clearTimeout(t), resolve()));
        c.stdin?.end();
      });
    }
    this.child = null;
    try {
      unlinkSync(this.pidFile);
    } catch {
      // never started
    }
    this.set({ state: 'stopped', baseUrl: null });
  }

  /** For tests and the app log: the child's pid while it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }
}

/**
 * The local studio is always the embedded one (SQLite under its data dir): a team's
 * DATABASE_URL or render-API settings in the user's environment must not redirect it, and
 * the environment profile's key has no business in the child.
 */
function studioEnv(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ['DATABASE_URL', 'RENDER_API_BASE_URL', 'RENDER_API_KEY', 'RENDER_API_KEY_HEADER']) delete env[name];
  return env;
}
