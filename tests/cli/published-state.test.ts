import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { echoFlow } from '../fixtures/mcp-flows';
import { runCli, runJson } from '../helpers/cli';
import { prepareDatabase } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

describe('flowbench list says what clients get of each flow (issue 17, point 5)', () => {
  it('never published, then a version, then a draft changed since, then changed back', async () => {
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

    // The label taken back: edited since, but what clients get again. By content, not by time.
    prepareDatabase(db, (services) =>
      services.flows.applyChanges('echo', { updateNodes: [{ id: 'say', label: echoFlow.nodes[1]?.label ?? '' }] }),
    );
    expect(await line()).toMatch(/on\s+v1\s+Echo/);
    // Publishing it anyway is said to change nothing.
    const again = await runCli(['--db', db, 'publish', 'echo_tool']);
    expect(again.stderr).toContain('warning: the draft is what version 1 is: the new version changes nothing');
    expect(again.stdout).toContain('published echo_tool version 2');
  });

  it('flowbench publish prints what clients would suffer from, and publishes all the same', async () => {
    const db = join(tempDir(), 'warned.db');
    prepareDatabase(db, (services) =>
      services.flows.create({ ...echoFlow, description: '', tool: { ...echoFlow.tool, description: '' } }),
    );
    const result = await runCli(['--db', db, 'publish', 'echo_tool']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: the tool has no description');
    expect(result.stdout).toContain('published echo_tool version 1');
    const json = await runJson<{ version: number; warnings: { message: string }[] }>([
      '--db',
      db,
      'publish',
      'echo_tool',
    ]);
    // Published again unchanged: that is said too.
    expect(json).toMatchObject({
      version: 2,
      warnings: [
        { message: expect.stringContaining('no description') },
        { message: 'the draft is what version 1 is: the new version changes nothing' },
      ],
    });
  });
});
