// Remembers the window's size, position and maximised state between runs (written atomically).
import { join } from 'node:path';
import { z } from 'zod';
import { readJson, writeJsonAtomic } from '../services/atomic-file.js';
import type { ScreenLike, WindowLike } from './electron-api.js';
import { reason, type Logger } from '../services/logger.js';

const WindowState = z.object({
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  maximized: z.boolean(),
});
type WindowState = z.infer<typeof WindowState>;

const DEFAULT: WindowState = { bounds: { x: 0, y: 0, width: 1280, height: 820 }, maximized: false };
const FILE = 'window-state.json';

export async function loadWindowState(dir: string, screen: ScreenLike): Promise<WindowState & { centered: boolean }> {
  const s = await readJson(join(dir, FILE), WindowState, DEFAULT);
  // Only reuse a position that is still on a connected display.
  const visible = screen.getAllDisplays().some((d) => {
    const a = d.workArea;
    return s.bounds.x >= a.x - 50 && s.bounds.y >= a.y - 50 && s.bounds.x < a.x + a.width - 100 && s.bounds.y < a.y + a.height - 100;
  });
  const width = Math.max(800, Math.min(s.bounds.width || DEFAULT.bounds.width, 4000));
  const height = Math.max(600, Math.min(s.bounds.height || DEFAULT.bounds.height, 3000));
  return { bounds: { ...s.bounds, width, height }, maximized: !!s.maximized, centered: !visible || s === DEFAULT };
}

export function trackWindowState(win: WindowLike, dir: string, log: Logger, delayMs = 500): void {
  let timer: NodeJS.Timeout | null = null;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (win.isDestroyed()) return;
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    // Not saved: the window opens where it was last saved (or centred) next time.
    void writeJsonAtomic(join(dir, FILE), state).catch((e: unknown) => log.warn(`window position not saved: ${reason(e)}`));
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, delayMs);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', save);
}
