import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { echoFlow } from '../fixtures/mcp-flows';
import { runCli } from '../helpers/cli';
import { holdWriteLock } from '../helpers/lock';
import { prepareDatabase } from '../helpers/mcp';
import { startServe } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';
import { openServices } from '../../core/services/open-services';

const tempDir = useTempDir();
const fixture = join(import.meta.dirname, '..', 'fixtures', 'formats', 'tool-flow-return-values.json');

function database(): string {
  const db = join(tempDir(), 'locked.db');
  prepareDatabase(db, (services) => services.flows.create(echoFlow));
  return db;
}

describe('another process holding the write lock (finding 2)', () => {
  it('flowbench import waits for it instead of failing with "database is locked"', async () => {
    const db = database();
    const lock = await holdWriteLock(db, 2500);
    const started = Date.now();
    const result = await runCli(['--db', db, 'import', fixture, '--json']);
    expect(result.stderr).not.toContain('locked');
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(1500);
    await lock.released;
    const services = openServices(db);
    expect(services.flows.list().map((f) => f.toolName)).toContain(
      (JSON.parse(result.stdout) as { toolName: string }).toolName,
    );
    services.close();
  });

  it('an editor save (applyChanges) waits for it and is stored', async () => {
    const db = database();
    const serve = await startServe(db);
    try {
      const session = new URL(serve.editorUrl).searchParams.get('session') ?? '';
      const call = (method: string, args: unknown) =>
        fetch(`${serve.url}/api/flows/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-flowbench-session': session },
          body: JSON.stringify(args),
        }).then((r) => r.json() as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>);
      const lock = await holdWriteLock(db, 2500);
      const reply = await call('applyChanges', {
        id: 'echo',
        changes: { updateNodes: [{ id: 'say', label: 'typed while locked' }] },
      });
      expect(reply).toMatchObject({ ok: true });
      await lock.released;
      const detail = (await call('get', { id: 'echo' })) as {
        value: { flow: { nodes: { id: string; label: string }[] } };
      };
      expect(detail.value.flow.nodes.find((n) => n.id === 'say')?.label).toBe('typed while locked');
    } finally {
      await serve.stop();
    }
  });

  it('flowbench list waits for an exclusive lock (finding 8) instead of calling the file no database', async () => {
    const db = database();
    const lock = await holdWriteLock(db, 3000, { exclusive: true });
    const result = await runCli(['--db', db, 'list', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { flows: unknown[] }).flows).toHaveLength(1);
    await lock.released;
  });
});
