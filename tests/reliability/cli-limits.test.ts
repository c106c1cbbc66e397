import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFlow, input, output, template } from '../helpers/flow-builder';
import { BIN, ROOT, runCli } from '../helpers/cli';
import { prepareDatabase } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

describe('the CLI at its limits (security finding 8)', () => {
  it('refuses a flow nested 10,000 levels deep with a validation error naming the limit', async () => {
    // Written as text: JSON.stringify itself cannot go that deep.
    const deep = `${'{"deeper":'.repeat(10_000)}"bottom"${'}'.repeat(10_000)}`;
    const flow = JSON.stringify({ ...buildFlow({ nodes: [input(), output('x')], edges: [] }), metadata: {} });
    const file = join(tempDir(), 'deep.json');
    writeFileSync(file, flow.replace('"metadata":{}', `"metadata":{"deep":${deep}}`));
    const result = await runCli(['--db', join(tempDir(), 'deep.db'), 'import', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[VALIDATION_ERROR]');
    expect(result.stderr).toContain('deeper than 64 levels');
    expect(result.stderr).not.toContain('call stack');
  });

  it('refuses to export a flow file it could not import again', async () => {
    const db = join(tempDir(), 'big.db');
    const big = 'y'.repeat(190_000);
    prepareDatabase(db, (services) => {
      const nodes = Array.from({ length: 60 }, (_, i) => template(`t${i}`, big));
      services.flows.create(buildFlow({ id: 'big', nodes: [input(), ...nodes], edges: [] }));
    });
    const result = await runCli(['--db', db, 'export', 'big', '--out', join(tempDir(), 'big.json')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\[FILE_TOO_LARGE\].*limited to 10\.0 MB, so it could not be imported again/);
  });

  it('stops quietly when the reader of its output goes away (`flowbench list --json | head`)', async () => {
    const db = join(tempDir(), 'many.db');
    prepareDatabase(db, (services) => {
      for (let i = 0; i < 1500; i++)
        services.flows.create(buildFlow({ id: `f${i}`, nodes: [input(), output('done')], edges: [] }));
    });
    const child = spawn(process.execPath, [BIN, '--db', db, 'list', '--json'], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like `head`: read the first chunk, then close the pipe.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
