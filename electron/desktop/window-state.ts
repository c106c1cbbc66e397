import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Rectangle } from 'electron';
import { z } from 'zod';
import type { DesktopWindow } from './shell';

/** Where the window was and how big, kept in the user data folder between launches. */
const WindowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

export const DEFAULT_SIZE = { width: 1400, height: 900 };
export const MIN_SIZE = { width: 800, height: 560 };
/** How much of the window must lie on a display for the saved position to be kept. */
const VISIBLE_PART = 100;

/** The saved state, or undefined when there is none or the file is not one (a first launch, a hand edit). */
export function readWindowState(file: string): WindowState | undefined {
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const overlap = (a: Rectangle, b: Rectangle) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

/**
 * The bounds to open the window with: the saved ones when enough of them is on
 * a display now (a monitor unplugged since must not leave the window off
 * screen), else the default size, centred by Electron; never larger than the
 * biggest display.
 */
export function initialBounds(
  saved: WindowState | undefined,
  workAreas: readonly Rectangle[],
): { x?: number; y?: number; width: number; height: number; maximized: boolean } {
  const largest = workAreas.reduce<Rectangle | undefined>(
    (best, area) => (!best || area.width * area.height > best.width * best.height ? area : best),
    undefined,
  );
  const fit = (size: { width: number; height: number }) => ({
    width: Math.max(MIN_SIZE.width, Math.min(size.width, largest?.width ?? size.width)),
    height: Math.max(MIN_SIZE.height, Math.min(size.height, largest?.height ?? size.height)),
  });
  if (!saved) return { ...fit(DEFAULT_SIZE), maximized: false };
  const size = fit(saved);
  const visible = workAreas.some(
    (area) => overlap({ x: saved.x, y: saved.y, ...size }, area) >= VISIBLE_PART * VISIBLE_PART,
  );
  return visible
    ? { x: saved.x, y: saved.y, ...size, maximized: saved.maximized }
    : { ...size, maximized: saved.maximized };
}

/** Saves the window's normal (unmaximised) bounds and whether it is maximised when it closes. */
export function keepWindowState(window: DesktopWindow, file: string): void {
  window.on('close', () => {
    const state: WindowState = { ...window.getNormalBounds(), maximized: window.isMaximized() };
    try {
      mkdirSync(dirname(file), { recursive: true });
      // Written whole and renamed over the old one: a crash mid-write leaves the previous state.
      writeFileSync(`${file}.tmp`, JSON.stringify(state));
      renameSync(`${file}.tmp`, file);
    } catch {
      // A read-only profile loses the position, nothing else.
    }
  });
}
