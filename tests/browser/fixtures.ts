import { test as base, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlowInput } from '../../core/model/flow';
import { echoFlow } from '../fixtures/mcp-flows';
import { prepareDatabase } from '../helpers/mcp';
import { startServe } from '../helpers/serve';

export interface Served {
  editorUrl: string;
  db: string;
}

export const test = base.extend<{ served: Served }>({
  // eslint-disable-next-line no-empty-pattern
  served: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'flowbench-browser-'));
    const db = join(dir, 'browser.db');
    const serve = await startServe(db);
    await use({ editorUrl: serve.editorUrl, db });
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  },
});

/** Opens the test's database beside `serve` (SQLite allows it) to add flows a test needs. */
export const withDatabase = prepareDatabase;

/** The echo tool flow with its nodes side by side, as the editor would lay them out (clickable one by one). */
export function laidOutEcho(overrides: Partial<FlowInput> = {}): FlowInput {
  const nodes = echoFlow.nodes.map((node, i) => ({ ...node, position: { x: i * 320, y: 100 } }));
  return { ...echoFlow, nodes, ...overrides };
}

/** Waits until the editor has saved every edit. */
export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 10_000 });
}

export { expect };
