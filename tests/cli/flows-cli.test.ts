import { readFileSync, writeFileSync, openSync, ftruncateSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli';
import { dumpDatabase } from '../helpers/db-dump';
import { smallFlow } from '../helpers/flows';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
const EXAMPLE = 'resources/examples/summarise-then-title.json';

function writeJson(name: string, value: unknown): string {
  const path = join(tempDir(), name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

describe('flowbench CLI: flows', () => {
  it('imports an example, lists it and round-trips it byte for byte', async () => {
    const db = join(tempDir(), 'a.db');
    const imported = await runJson<{ id: string; toolName: string; nodeCount: number }>([
      '--db',
      db,
      'import',
      EXAMPLE,
    ]);
    expect(imported).toMatchObject({
      id: 'example-summarise-then-title',
      toolName: 'summarise_then_title',
      nodeCount: 4,
    });

    const { flows } = await runJson<{ flows: { id: string; nodeCount: number }[] }>(['--db', db, 'list']);
    expect(flows).toEqual([expect.objectContaining({ id: imported.id, nodeCount: 4, edgeCount: 3 })]);

    const first = join(tempDir(), 'first.json');
    expect((await runCli(['--db', db, 'export', imported.toolName, '--out', first])).code).toBe(0);
    // A folder as --out was INTERNAL_ERROR ("please report it") with Node's stack.
    const intoFolder = await runCli(['--db', db, 'export', imported.toolName, '--out', tempDir()]);
    expect([intoFolder.code, intoFolder.stderr]).toEqual([
      1,
      `flowbench: error [FILE_NOT_WRITABLE]: cannot write ${tempDir()}: it is a folder\n`,
    ]);
    const other = join(tempDir(), 'b.db');
    await runJson(['--db', other, 'import', first]);
    const second = await runCli(['--db', other, 'export', imported.id]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(readFileSync(first, 'utf8'));
  });

  it('validates a file and a stored flow', async () => {
    const db = join(tempDir(), 'v.db');
    expect(await runJson(['validate', EXAMPLE])).toEqual({ valid: true, problems: [] });
    const broken = writeJson(
      'broken.json',
      smallFlow({ nodes: [{ id: 'a', type: 'template', config: { template: '{{inputs.x}}' } }], edges: [] }),
    );
    const result = await runCli(['--db', db, 'validate', broken]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('UNRESOLVED_REFERENCE node a (config.template)');
    await runJson(['--db', db, 'import', EXAMPLE]);
    expect((await runCli(['--db', db, 'validate', 'Summarise then title'])).stdout).toContain('valid');
  });

  it('deletes a flow by tool name', async () => {
    const db = join(tempDir(), 'd.db');
    await runJson(['--db', db, 'import', EXAMPLE]);
    expect(await runJson(['--db', db, 'delete', 'summarise_then_title'])).toEqual({
      deleted: 'example-summarise-then-title',
    });
    expect(await runJson(['--db', db, 'list'])).toEqual({ flows: [] });
  });

  it('seeds the examples into a new default database and on request', async () => {
    const home = tempDir();
    const listed = await runJson<{ flows: { toolName: string }[] }>(['list'], { XDG_CONFIG_HOME: home, HOME: home });
    expect(listed.flows.map((f) => f.toolName).sort()).toEqual([
      'launch_campaign',
      'summarise_then_title',
      'triage_ticket',
    ]);
    expect(
      readFileSync(join(home, 'Flowbench', 'flowbench.db'))
        .subarray(0, 15)
        .toString(),
    ).toBe('SQLite format 3');

    const db = join(tempDir(), 'explicit.db');
    expect(await runJson(['--db', db, 'list'])).toEqual({ flows: [] });
    expect((await runJson<{ added: unknown[] }>(['--db', db, 'examples'])).added).toHaveLength(3);
    expect((await runJson<{ skipped: string[] }>(['--db', db, 'examples'])).skipped).toHaveLength(3);
  });

  it('lists flows in aligned columns, however long their ids and tool names', async () => {
    const db = join(tempDir(), 'columns.db');
    await runJson(['--db', db, 'examples']);
    const { stdout } = await runCli(['--db', db, 'list']);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    // Each column starts where it starts on the other lines: the tool name, the node count, the name.
    for (const [text, column] of [
      [/(launch_campaign|summarise_then_title|triage_ticket)/, 1],
      [/\d nodes/, 2],
      [/(Launch campaign|Summarise then title|Triage a support ticket)/, 3],
    ] as const) {
      expect(new Set(lines.map((line) => line.search(text))).size, `column ${column}`).toBe(1);
    }
  });

  it("shows a run's steps in aligned columns, a node id longer than the old fixed width included", async () => {
    const db = join(tempDir(), 'steps.db');
    const longId = 'greet_the_person_by_their_topic_of_choice';
    const flow = smallFlow({
      nodes: smallFlow().nodes.map((node) => (node.id === 'greet' ? { ...node, id: longId } : node)),
      edges: [
        { id: 'e1', source: 'input', target: longId },
        { id: 'e2', source: longId, target: 'result' },
      ],
    });
    const resultNode = flow.nodes.find((node) => node.id === 'result')!;
    resultNode.config = { returnValues: [{ id: 'r', text: `{{nodes.${longId}.output}}` }] };
    await runJson(['--db', db, 'import', writeJson('long.json', flow)]);
    const run = await runJson<{ id: string }>(['--db', db, 'run', 'small_flow', '--input', 'topic=otters', '--json']);
    const steps = (await runCli(['--db', db, 'runs', 'show', run.id])).stdout
      .split('\n')
      .filter((line) => /^ {2}succeeded /.test(line));
    expect(steps).toHaveLength(3);
    // Every duration starts where the others do, and ends each line.
    expect(new Set(steps.map((line) => line.search(/\d+\.\d\d s$/))).size).toBe(1);
  });

  describe('refuses bad input with a specific message, exit 1 and the database unchanged', () => {
    const cases: { name: string; file: () => string; code: string; message: RegExp }[] = [
      {
        name: 'malformed JSON',
        file: () => writeJson('bad.json', '{ "schemaVersion": 1,\n  "nodes": [ }'),
        code: 'INVALID_JSON',
        message: /is not valid JSON at line 2, column 14: value expected/,
      },
      {
        name: 'a 50 MB file',
        file: () => {
          const path = join(tempDir(), 'huge.json');
          const fd = openSync(path, 'w');
          ftruncateSync(fd, 50 * 1024 * 1024);
          closeSync(fd);
          return path;
        },
        code: 'FILE_TOO_LARGE',
        message: /is 50\.0 MB; imports are limited to 10\.0 MB/,
      },
      {
        name: 'a cycle',
        file: () =>
          writeJson(
            'cycle.json',
            smallFlow({
              id: 'c',
              tool: { name: 'cyc' },
              edges: [...smallFlow().edges!, { id: 'back', source: 'result', target: 'greet' }],
            }),
          ),
        code: 'CIRCULAR_DEPENDENCY',
        message: /the edges form a cycle: greet → result → greet/,
      },
      {
        name: 'duplicate node ids',
        file: () =>
          writeJson(
            'dup.json',
            smallFlow({
              id: 'd',
              tool: { name: 'dup' },
              nodes: [...smallFlow().nodes, { id: 'greet', type: 'template' }],
            }),
          ),
        code: 'DUPLICATE_NODE_ID',
        message: /two nodes have the id "greet"/,
      },
      {
        name: 'an unknown node type',
        file: () =>
          writeJson(
            'type.json',
            smallFlow({ id: 'u', tool: { name: 'unk' }, nodes: [...smallFlow().nodes, { id: 'x', type: 'webhook' }] }),
          ),
        code: 'UNKNOWN_NODE_TYPE',
        message: /node "x" has unknown type "webhook"/,
      },
      {
        name: 'an edge to a missing node',
        file: () =>
          writeJson(
            'edge.json',
            smallFlow({
              id: 'm',
              tool: { name: 'miss' },
              edges: [...smallFlow().edges!, { id: 'e9', source: 'greet', target: 'ghost' }],
            }),
          ),
        code: 'DANGLING_EDGE',
        message: /edge "e9" ends at node "ghost", which does not exist/,
      },
      {
        name: 'a duplicate tool name',
        file: () => writeJson('tool.json', smallFlow({ id: 'other', tool: { name: 'summarise_then_title' } })),
        code: 'DUPLICATE_TOOL_NAME',
        message: /another flow already uses the tool name "summarise_then_title"/,
      },
      {
        name: 'a file of another kind',
        file: () => writeJson('other.json', { hello: 'world' }),
        code: 'UNSUPPORTED_FORMAT',
        message: /not a flow Flowbench can import/,
      },
      {
        name: 'a missing file',
        file: () => join(tempDir(), 'nope.json'),
        code: 'FILE_NOT_FOUND',
        message: /no such file/,
      },
    ];

    for (const { name, file, code, message } of cases) {
      it(name, async () => {
        const db = join(tempDir(), 'bad.db');
        await runJson(['--db', db, 'import', EXAMPLE]);
        const before = dumpDatabase(db);
        const result = await runCli(['--db', db, 'import', file()]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(code);
        expect(result.stderr).toMatch(message);
        expect(result.stdout).toBe('');
        expect(dumpDatabase(db)).toEqual(before);
      });
    }

    it('a --db that points at a non-SQLite file', async () => {
      const db = writeJson('notes.txt', 'my notes\n'.repeat(50));
      const before = readFileSync(db);
      const result = await runCli(['--db', db, 'import', EXAMPLE, '--json']);
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stderr)).toEqual({
        error: {
          code: 'NOT_A_DATABASE',
          message: `${db} is not a SQLite database; Flowbench left it untouched`,
          data: { path: db },
        },
      });
      expect(readFileSync(db).equals(before)).toBe(true);
    });
  });

  it('answers bad usage with exit 2 and unknown flows with exit 1', async () => {
    const db = join(tempDir(), 'u.db');
    expect((await runCli(['--db', db, 'frobnicate'])).code).toBe(2);
    expect((await runCli(['--db', db, 'import'])).code).toBe(2);
    const missing = await runCli(['--db', db, 'export', 'nothing-here']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'flowbench: error [FLOW_NOT_FOUND]: no flow has the id, tool name or name "nothing-here"\n',
    );
  });
});
