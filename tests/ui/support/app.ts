// Helpers for the UI suite: open the app through the web shell, read what the preview canvas
// shows, call the real bridge from the page, record status changes, take screenshots.
import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import type { BridgeInput, BridgeMethod, BridgeOutputs } from '../../../shared/bridge/index.js';

export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.locator('[data-app-state="loaded"]')).toBeVisible({ timeout: 30_000 });
}

/** The real bridge, as the app itself calls it. */
export function bridge<M extends BridgeMethod>(page: Page, method: M, input: BridgeInput<M>): Promise<BridgeOutputs[M]> {
  return page.evaluate(
    ([m, i]) => (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call(m, i),
    [method, input] as const,
  ) as Promise<BridgeOutputs[M]>;
}

/** The placement the preview canvas last drew. */
export async function canvasPlacement(page: Page): Promise<{ x: number; y: number; scale: number; aspectRatio: string }> {
  const d = await page.getByTestId('stage-scene').evaluate((el) => ({ ...(el as HTMLCanvasElement).dataset }));
  return { x: Number(d.x), y: Number(d.y), scale: Number(d.scale), aspectRatio: String(d.aspectRatio) };
}

export async function fieldPlacement(page: Page): Promise<{ x: number; y: number; scale: number }> {
  return {
    x: Number(await page.locator('#placement-x').inputValue()),
    y: Number(await page.locator('#placement-y').inputValue()),
    scale: Number(await page.locator('#placement-scale').inputValue()),
  };
}

/** Starts logging every status text shown for jobs (list rows and the render bar). */
export async function recordStatuses(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __statuses: string[] };
    w.__statuses = [];
    const note = () => {
      for (const el of document.querySelectorAll('[data-testid="job-status"], [data-testid="last-job-status"]')) {
        const t = (el.textContent ?? '').trim();
        if (w.__statuses[w.__statuses.length - 1] !== t) w.__statuses.push(t);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    note();
  });
}

export function recordedStatuses(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png` });
}

export async function goTo(page: Page, screen: 'Create' | 'Jobs' | 'Settings'): Promise<void> {
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('button', { name: new RegExp(`^${screen}`) }).click();
}

/** Cancels a job; one that finished meanwhile (409 invalid_transition) has nothing left to cancel. */
export async function cancelIfActive(page: Page, id: string): Promise<void> {
  const code = await page.evaluate(async (jobId) => {
    try {
      await (window as unknown as { studio: { call(m: string, i: unknown): Promise<unknown> } }).studio.call('jobs.cancel', { id: jobId });
      return null;
    } catch (e) {
      return (e as { code?: string }).code ?? String(e);
    }
  }, id);
  if (code !== null && code !== 'invalid_transition') throw new Error(`jobs.cancel ${id} answered ${code}`);
}
