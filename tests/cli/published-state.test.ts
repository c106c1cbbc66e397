import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { echoFlow } from '../fixtures/mcp-flows';
import { runCli, runJson } from '../helpers/cli';
import { prepareDatabase } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

describe('flowbench list says what clients get of each flow (issue 17, point 5)', () => {
  it('never published, then a version, then a draft changed since', async () => {
    const db = join(tempDir(), 'state.db');
    prepareDatabase(db, (services) => services.flows.create(echoFlow));
    const line = async () => (await runCli(['--db', db, 'list'])).stdout;
    expect(await line()).toMatch(/echo_tool\s+3 nodes\s+on\s+never published\s+Echo/);

    expect((await runCli(['--db', db, 'publish', 'echo_tool'])).code).toBe(0);
    expect(await line()).toMatch(/on\s+v1\s+Echo/);

    prepareDatabase(db, (services) =>
      services.flows.applyChanges('echo', { updateNodes: [{ id: 'say', label: 'changed after publishing' }] }),
    );
    expect(await line()).toMatch(/on\s+v1, draft changed\s+Echo/);
    const { flows } = await runJson<{ flows: { publishedVersion?: number; hasUnpublishedChanges: boolean }[] }>([
      '--db',
      db,
      'list',
    ]);
    expect(flows[0]).toMatchObject({ publishedVersion: 1, hasUnpublishedChanges: true });
  });
});
