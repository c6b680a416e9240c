// Remembers the window's size, position and maximised state between runs (written atomically).
import type { BrowserWindow, Rectangle } from 'electron';
import { screen } from 'electron';
import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../services/atomic-file.js';

interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

const DEFAULT: WindowState = { bounds: { x: 0, y: 0, width: 1280, height: 820 }, maximized: false };

export async function loadWindowState(dir: string): Promise<WindowState & { centered: boolean }> {
  const s = await readJson<WindowState>(join(dir, 'window-state.json'), DEFAULT);
  // Only reuse a position that is still on a connected display.
  const visible = screen.getAllDisplays().some((d) => {
    const a = d.workArea;
    return s.bounds.x >= a.x - 50 && s.bounds.y >= a.y - 50 && s.bounds.x < a.x + a.width - 100 && s.bounds.y < a.y + a.height - 100;
  });
  const width = Math.max(800, Math.min(s.bounds.width || DEFAULT.bounds.width, 4000));
  const height = Math.max(600, Math.min(s.bounds.height || DEFAULT.bounds.height, 3000));
  return { bounds: { ...s.bounds, width, height }, maximized: !!s.maximized, centered: !visible || s === DEFAULT };
}

export function trackWindowState(win: BrowserWindow, dir: string): void {
  let timer: NodeJS.Timeout | null = null;
  const save = () => {
    if (win.isDestroyed()) return;
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    void writeJsonAtomic(join(dir, 'window-state.json'), state).catch(() => undefined);
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', save);
}
