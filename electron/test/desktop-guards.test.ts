// The desktop's guards that run without an Electron binary: which IPC senders may use the
// bridge, and which files studio-app:// may serve. (The Electron smoke suite covers them live.)
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { WebContents } from 'electron';
import { SCENE_FONTS } from '../../shared/scene/fonts.js';
import { resolveAppFile } from '../app/app-files.js';
import { rendererDirs } from '../services/renderer-files.js';
import { trustedSender } from '../app/ipc/sender-check.js';

// Electron cannot run here: plain objects stand in for its WebContents and frames.
function sender(url: string, opts: { iframe?: boolean; ours?: boolean } = {}) {
  const mainFrame = { url };
  const frame = opts.iframe ? { url } : mainFrame;
  const wc = { mainFrame, ours: opts.ours ?? true } as unknown as WebContents;
  return { sender: wc, senderFrame: frame } as unknown as Parameters<ReturnType<typeof trustedSender>>[0];
}

describe('IPC sender check', () => {
  const check = trustedSender('studio-app://app', (wc) => (wc as unknown as { ours: boolean }).ours);
  it('accepts the main frame of our window on the app origin', () => {
    expect(check(sender('studio-app://app/index.html'))).toBe(true);
  });
  it('refuses iframes, other windows, other origins and missing frames', () => {
    expect(check(sender('studio-app://app/index.html', { iframe: true }))).toBe(false);
    expect(check(sender('studio-app://app/index.html', { ours: false }))).toBe(false);
    expect(check(sender('https://evil.example/'))).toBe(false);
    expect(check(sender('file:///etc/passwd'))).toBe(false);
    expect(check(sender('not a url'))).toBe(false);
    expect(check({ ...sender('studio-app://app/'), senderFrame: null } as never)).toBe(false);
  });
});

describe('studio-app:// files', () => {
  const dirs = rendererDirs('/opt/app');
  const root = dirs.renderer;
  it('serves files of the built renderer, and the fonts SCENE_FONTS names from resources/fonts', () => {
    expect(resolveAppFile(dirs, 'studio-app://app/')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(dirs, 'studio-app://app/assets/index-abc.js')).toBe(join(root, 'assets/index-abc.js'));
    for (const f of SCENE_FONTS) expect(resolveAppFile(dirs, `studio-app://app/fonts/${f.file}`)).toBe(join('/opt/app/resources/fonts', f.file));
  });
  it('refuses paths that leave the folder and other hosts', () => {
    expect(resolveAppFile(dirs, 'studio-app://app/..%2F..%2Fpackage.json')).toBeNull();
    // The URL parser resolves dot segments first: this one stays inside the folder.
    expect(resolveAppFile(dirs, 'studio-app://app/%2e%2e/%2e%2e/index.html')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(dirs, 'studio-app://other/index.html')).toBeNull();
    expect(resolveAppFile(dirs, 'studio-app://app/%E0%A4%A')).toBeNull();
  });
  it('serves nothing else of resources/fonts, nor anything a fonts/ path leads out to', () => {
    for (const path of ['fonts/..%2F..%2Fpackage.json', 'fonts/..%2Findex.html', 'fonts/%2E%2E%2F%2E%2E%2Fpackage.json', 'fonts/..%5C..%5Cpackage.json', 'fonts/make-subsets.py', 'fonts/Noto-LICENSE.txt', 'fonts/', 'fonts/sub/DejaVuSans.ttf']) {
      expect(resolveAppFile(dirs, `studio-app://app/${path}`), path).toBeNull();
    }
  });
});
