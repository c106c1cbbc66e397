import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runCli, runJson } from '../helpers/cli';
import { dumpDatabase } from '../helpers/db-dump';
import { prepareDatabase } from '../helpers/mcp';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
const FIXTURES = 'tests/fixtures/formats';

interface ImportJson {
  id: string;
  toolName: string;
  format: string;
  problems: { code: string; message: string; nodeId?: string }[];
  warnings: { code: string; message: string; nodeId?: string }[];
  publishedVersion?: number;
  laidOut?: string;
}

describe('flowbench import/export: other formats', () => {
  it('imports the FlowyPrompt example and runs it with its initial variables to the chained result', async () => {
    const db = join(tempDir(), 'fp.db');
    const imported = await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/flowyprompt-marketing.json`]);
    expect(imported).toMatchObject({ format: 'flowyprompt', toolName: 'Marketing_Strategy', problems: [] });
    const run = await runCli([
      '--db',
      db,
      'run',
      'Marketing_Strategy',
      '--input',
      'company_name=TechCorp',
      '--input',
      'market=AI',
      '--input',
      'budget=100K',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'Using this positioning (Brand_Positioning_Strategy):\nWrite a brand positioning for TechCorp in the AI market.\n\nPlan a campaign with a budget of 100K.\n',
    );
    // Its nodes were all in one row while the flow branches: they were laid out, and it said so.
    expect(imported.laidOut).toBe('a branching flow was all in one row');
    const exported = JSON.parse(
      (await runCli(['--db', db, 'export', 'Marketing_Strategy', '--format', 'flowyprompt'])).stdout,
    ) as { nodes: { id: string; position: { x: number; y: number } }[] };
    // Everything comes back as it was but the positions, which are the ones the editor shows.
    const original = JSON.parse(readFileSync(`${FIXTURES}/flowyprompt-marketing.json`, 'utf8')) as typeof exported;
    const withoutPositions = (flow: typeof exported) => ({
      ...flow,
      nodes: flow.nodes.map(({ position: _, ...node }) => node),
    });
    expect(withoutPositions(exported)).toEqual(withoutPositions(original));
    expect(new Set(exported.nodes.map((n) => n.position.y)).size).toBeGreaterThan(1);
  });

  it("says what an export leaves out: a flow's sticky notes and test cases are only in the native file, which carries them back", async () => {
    const db = join(tempDir(), 'notes.db');
    const imported = await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/flowyprompt-marketing.json`]);
    const note = {
      id: 'note_1',
      text: 'Budget is in dollars',
      position: { x: 0, y: 400 },
      width: 260,
      height: 160,
      color: 'green',
    } as const;
    prepareDatabase(db, (services) =>
      services.flows.applyChanges(imported.id, {
        flow: {
          notes: [note],
          tests: [{ id: 'smoke', name: 'smoke', inputs: { company_name: 'A', market: 'B', budget: '1' } }],
        },
      }),
    );
    const foreign = await runCli(['--db', db, 'export', 'Marketing_Strategy', '--format', 'flowyprompt']);
    expect(foreign.code).toBe(0);
    expect(JSON.parse(foreign.stdout)).toHaveProperty('nodes');
    expect(foreign.stderr).toBe('flowbench: not in the flowyprompt file: 1 sticky note, 1 test case\n');

    const file = join(tempDir(), 'marketing.flowbench.json');
    const native = await runCli(['--db', db, 'export', 'Marketing_Strategy', '--out', file]);
    expect(native).toMatchObject({ code: 0, stderr: '' });
    const other = join(tempDir(), 'other.db');
    const again = await runJson<ImportJson>(['--db', other, 'import', file]);
    prepareDatabase(other, (services) => expect(services.flows.get(again.id).notes).toEqual([note]));
  });

  it('imports a hand-edited native file without the fields a flow does not have, and says which, on the stored flow too', async () => {
    const db = join(tempDir(), 'edited.db');
    const imported = await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/flowyprompt-marketing.json`]);
    const file = join(tempDir(), 'edited.flowbench.json');
    expect(await runCli(['--db', db, 'export', imported.id, '--out', file])).toMatchObject({ code: 0 });
    const edited = JSON.parse(readFileSync(file, 'utf8')) as { tool: Record<string, unknown> } & Record<
      string,
      unknown
    >;
    edited.tool.descripton = 'misspelt';
    edited.tool.name = 'edited_marketing';
    writeFileSync(file, JSON.stringify(edited));

    const again = await runCli(['--db', db, 'import', file]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      'warning IMPORT_PROBLEM: tool.descripton: not a field of a Flowbench flow; left out',
    );
    // Stored with the flow, as other formats' leftovers are: the editor shows it until it is dismissed.
    const validated = await runJson<{ problems: { code: string; message: string }[] }>([
      '--db',
      db,
      'validate',
      'edited_marketing',
    ]);
    expect(validated.problems).toContainEqual(
      expect.objectContaining({
        code: 'IMPORT_PROBLEM',
        message: 'tool.descripton: not a field of a Flowbench flow; left out',
      }),
    );
  });

  it("imports a hand-edited native file without a node's setting its type does not have, and says which, where it is", async () => {
    const db = join(tempDir(), 'setting.db');
    const imported = await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/flowyprompt-marketing.json`]);
    const file = join(tempDir(), 'setting.flowbench.json');
    expect(await runCli(['--db', db, 'export', imported.id, '--out', file])).toMatchObject({ code: 0 });
    const edited = JSON.parse(readFileSync(file, 'utf8')) as {
      tool: Record<string, unknown>;
      nodes: { id: string; type: string; config: Record<string, unknown> }[];
    };
    const index = edited.nodes.findIndex((node) => node.type === 'template');
    const node = edited.nodes[index]!;
    const settings = { ...node.config };
    node.config.tempalte = 'Misspelt';
    edited.tool.name = 'setting_marketing';
    writeFileSync(file, JSON.stringify(edited));
    const said = `nodes[${index}].config.tempalte: not a setting of template nodes; left out`;

    // Before importing, validating the file says what importing it will leave out.
    const checked = await runCli(['--db', db, 'validate', file]);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toContain(`warning IMPORT_PROBLEM node ${node.id}: ${said}`);
    const again = await runJson<ImportJson>(['--db', db, 'import', file]);
    expect(again.warnings).toContainEqual(expect.objectContaining({ code: 'IMPORT_PROBLEM', nodeId: node.id }));
    prepareDatabase(db, (services) => {
      const stored = services.flows.get(again.id);
      // Its own settings as the file had them, without the one its type lacks.
      expect(stored.nodes.find((n) => n.id === node.id)?.config).toEqual(settings);
      expect(services.flows.problemsOf(stored)).toContainEqual(
        expect.objectContaining({ code: 'IMPORT_PROBLEM', nodeId: node.id, message: said }),
      );
    });
  });

  it("imports a flow definition whose memory read has a field no agent setting takes: left out and said on the step's node, not refused", async () => {
    const db = join(tempDir(), 'memory-field.db');
    const doc = JSON.parse(readFileSync(`${FIXTURES}/flow-definition-minimal.json`, 'utf8')) as {
      steps: { id: string; memoryReads?: Record<string, unknown>[] }[];
    };
    const step = doc.steps.find((s) => s.memoryReads)!;
    step.memoryReads![0]!.order = 'desc';
    const file = join(tempDir(), 'memory-field.json');
    writeFileSync(file, JSON.stringify(doc));

    const imported = await runJson<ImportJson>(['--db', db, 'import', file]);
    expect(imported.warnings).toContainEqual(
      expect.objectContaining({
        code: 'IMPORT_PROBLEM',
        nodeId: step.id,
        // Where it is in the file, not in the node's config.
        message: `steps[${doc.steps.indexOf(step)}].memoryReads[0].order: not a setting of agent nodes; left out`,
      }),
    );
    prepareDatabase(db, (services) => {
      const node = services.flows.get(imported.id).nodes.find((n) => n.id === step.id);
      expect(node?.config.memoryReads).toEqual([{ channel: 'context', limit: 5 }]);
    });
  });

  it('validates an exported file with the problems its flow carries from an earlier import, as importing it shows them', async () => {
    const db = join(tempDir(), 'carried.db');
    const imported = await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/flow-definition-workshop.json`]);
    const file = join(tempDir(), 'carried.flowbench.json');
    expect(await runCli(['--db', db, 'export', imported.id, '--out', file])).toMatchObject({ code: 0 });
    const recorded = imported.problems.map((p) => p.message);
    expect(recorded).toHaveLength(1);
    const validated = await runCli(['--db', db, 'validate', file, '--json']);
    expect(validated.code).toBe(1);
    const { problems } = JSON.parse(validated.stdout) as { problems: { code: string; message: string }[] };
    expect(problems.filter((p) => p.code === 'IMPORT_PROBLEM').map((p) => p.message)).toEqual(recorded);
  });

  it('keeps a flow definition with a dangling transition as a draft that cannot be published, and makes an agent to review per unknown agent version', async () => {
    const db = join(tempDir(), 'fd.db');
    const imported = await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/flow-definition-workshop.json`]);
    expect(imported.format).toBe('flow-definition');
    expect(imported.problems.map((p) => p.code)).toEqual(['IMPORT_PROBLEM']);
    // Memory channels and transitions run as the seed says: nothing about them is reported as not applied.
    expect(
      imported.warnings
        .filter((p) => p.code === 'IMPORT_PROBLEM')
        .map((p) => p.message)
        .join('\n'),
    ).not.toMatch(/memory|onFailure/);
    expect(imported.warnings.filter((p) => p.code !== 'IMPORT_PROBLEM').map((p) => `${p.code} ${p.nodeId}`)).toEqual([
      'AGENT_NEEDS_REVIEW gather_requirements',
      'AGENT_NEEDS_REVIEW generate_solution',
      'AGENT_NEEDS_REVIEW review_solution',
      'AGENT_NEEDS_REVIEW abort_flow',
    ]);
    const agents = await runJson<{ agents: { name: string; status: string; latestVersion?: { id: string } }[] }>([
      '--db',
      db,
      'agents',
      'list',
    ]);
    expect(agents.agents.map((a) => [a.name, a.status, a.latestVersion?.id])).toEqual([
      ['Прерывание', 'review', 'dddddddd-1111-2222-3333-444444444444'],
      ['Проектирование решения', 'review', 'bbbbbbbb-1111-2222-3333-444444444444'],
      ['Ревью решения', 'review', 'cccccccc-1111-2222-3333-444444444444'],
      ['Сбор требований', 'review', 'aaaaaaaa-1111-2222-3333-444444444444'],
    ]);
    expect(imported.problems[0]).toMatchObject({
      nodeId: 'generate_solution',
      message:
        'steps[1].transitions.onFailure.next: step "generate_solution" goes on failure to "refine_solution", which is not a step',
    });
    const publish = await runCli(['--db', db, 'publish', imported.id]);
    expect(publish.code).toBe(1);
    expect(publish.stderr).toContain('cannot be published: 1 problem');
    const yaml = await runCli(['--db', db, 'export', imported.id, '--format', 'flow-definition-yaml']);
    const definition = parseYaml(yaml.stdout) as {
      flowId: string;
      steps: { transitions?: { onFailure?: { next?: string } } }[];
    };
    expect(definition.flowId).toBe('solution-workshop');
    expect(definition.steps[1]?.transitions?.onFailure?.next).toBe('refine_solution');
  });

  it('imports a YAML definition and a workflow, detected by content', async () => {
    const db = join(tempDir(), 'y.db');
    const copy = join(tempDir(), 'no-extension');
    writeFileSync(copy, readFileSync(`${FIXTURES}/flow-definition-workshop.yaml`));
    expect(await runJson<ImportJson>(['--db', db, 'import', copy])).toMatchObject({
      format: 'flow-definition',
      toolName: 'solution-workshop-yaml',
    });
    expect(
      await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/workflow-summarize-label.json`]),
    ).toMatchObject({ format: 'workflow', toolName: 'Summarize_and_label' });
    const second = await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/workflow-summarize-label.json`]);
    expect(second.toolName).toBe('Summarize_and_label_2');
    expect(await runJson<ImportJson>(['--db', db, 'import', `${FIXTURES}/tool-flow-return-values.json`])).toMatchObject(
      { format: 'tool-flow', toolName: 'store_hours', problems: [] },
    );
  });

  describe('refuses bad files with a clear message and writes nothing', () => {
    const cases: { name: string; content: () => string; code: string; message: RegExp }[] = [
      {
        name: 'a file of another kind',
        content: () => '{"invoice": 42, "items": []}',
        code: 'UNSUPPORTED_FORMAT',
        message: /not a flow Flowbench can import/,
      },
      {
        name: 'a truncated file',
        content: () => readFileSync(`${FIXTURES}/flow-definition-workshop.json`, 'utf8').slice(0, 700),
        code: 'INVALID_JSON',
        message: /is not valid JSON at line \d+, column \d+/,
      },
      {
        name: 'a FlowyPrompt flow with a cycle',
        content: () => {
          const doc = JSON.parse(readFileSync(`${FIXTURES}/flowyprompt-marketing.json`, 'utf8')) as {
            edges: unknown[];
          };
          doc.edges.push({ id: 'edge-back', source: 'node-3', target: 'node-2', type: 'chain' });
          return JSON.stringify(doc);
        },
        code: 'CIRCULAR_DEPENDENCY',
        message: /has a cycle: node-2 → node-3 → node-2/,
      },
      {
        name: 'a YAML bomb',
        content: () =>
          [
            'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
            ...'bcdefghij'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(',')}]`),
            'flowId: bomb',
            'steps: []',
          ].join('\n'),
        code: 'INVALID_YAML',
        message: /alias/i,
      },
    ];
    for (const { name, content, code, message } of cases) {
      it(name, async () => {
        const db = join(tempDir(), 'bad.db');
        await runJson(['--db', db, 'import', 'resources/examples/triage-ticket.json']);
        const before = dumpDatabase(db);
        const file = join(tempDir(), 'bad-input');
        writeFileSync(file, content());
        const result = await runCli(['--db', db, 'import', file]);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(code);
        expect(result.stderr).toMatch(message);
        expect(dumpDatabase(db)).toEqual(before);
      });
    }
  });
});
