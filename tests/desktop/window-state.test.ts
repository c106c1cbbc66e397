import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesktopWindow } from '../../electron/desktop/shell';
import { initialBounds, keepWindowState, readWindowState } from '../../electron/desktop/window-state';
import { useTempDir } from '../helpers/temp';
import { FakeWindow } from './fake-shell';

const tempDir = useTempDir();
const LAPTOP = { x: 0, y: 0, width: 1440, height: 900 };
const MONITOR = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('window state', () => {
  it('reopens where it closed, maximised or not', () => {
    const file = join(tempDir(), 'window-state.json');
    const window = new FakeWindow({ x: 1600, y: 120, width: 1700, height: 1000 });
    window.maximized = true;
    keepWindowState(window as unknown as DesktopWindow, file);
    window.close();

    const saved = readWindowState(file);
    expect(saved).toEqual({ x: 1600, y: 120, width: 1700, height: 1000, maximized: true });
    expect(initialBounds(saved, [LAPTOP, MONITOR])).toEqual({
      x: 1600,
      y: 120,
      width: 1700,
      height: 1000,
      maximized: true,
    });
  });

  it('a window left on a monitor unplugged since opens on a display there is, no larger than it', () => {
    const saved = { x: 1600, y: 120, width: 2400, height: 1300, maximized: false };
    expect(initialBounds(saved, [LAPTOP])).toEqual({ width: 1440, height: 900, maximized: false });
  });

  it('a first launch, or a file that is not a window state, opens at the default size', () => {
    const file = join(tempDir(), 'window-state.json');
    expect(initialBounds(readWindowState(file), [MONITOR])).toEqual({ width: 1400, height: 900, maximized: false });
    writeFileSync(file, '{"x": "left"}');
    expect(readWindowState(file)).toBeUndefined();
    writeFileSync(file, 'not json');
    expect(readWindowState(file)).toBeUndefined();
  });
});
