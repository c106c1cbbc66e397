import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FlowSchema, type Flow } from '../model/flow';
import { validateFlow } from '../model/validate';
import { nodeRegistry } from '../nodes/registry';
import { detectImport } from './detect';
import { exportFlowText, leftOutOf } from './export';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../tests/fixtures/formats', name), 'utf8');

/** What the store would hold after an import (of a fixture, or of `text` when given): a parsed, validated flow. */
function imported(name: string, text = fixture(name)): { flow: Flow; format: string; problems: string[] } {
  const result = detectImport(text, name);
  const candidate = {
    id: 'imported',
    ...result.flow,
    metadata: { ...(result.flow.metadata as object), importProblems: result.problems },
  };
  const validated = validateFlow(candidate, { catalogue: nodeRegistry });
  if (!validated.flow) throw new Error(JSON.stringify(validated.problems));
  return {
    flow: FlowSchema.parse(validated.flow),
    format: result.format,
    problems: validated.problems.filter((p) => p.severity === 'error').map((p) => p.code),
  };
}

describe('FlowyPrompt', () => {
  it('imports the seed example with references rewritten', () => {
    const { flow, format, problems } = imported('flowyprompt-marketing.json');
    expect(format).toBe('flowyprompt');
    expect(problems).toEqual([]);
    expect(flow.parameters.map((p) => p.name)).toEqual(['company_name', 'market', 'budget']);
    expect(flow.nodes.map((n) => [n.id, n.type])).toEqual([
      ['node-1', 'input'],
      ['node-2', 'template'],
      ['node-3', 'template'],
      ['node-4', 'output'],
    ]);
    expect(flow.nodes[2]?.config.template).toBe(
      'Using this positioning (Brand_Positioning_Strategy):\n{{nodes.node-2.output}}\n\nPlan a campaign with a budget of {{inputs.budget}}.',
    );
    expect(flow.nodes[3]?.config.returnValues).toEqual([{ id: 'from_node-3', text: '{{nodes.node-3.output}}' }]);
    expect(flow.edges).toHaveLength(4);
  });

  it('round-trips every field of the format', () => {
    const original: unknown = JSON.parse(fixture('flowyprompt-marketing.json'));
    const { flow } = imported('flowyprompt-marketing.json');
    expect(JSON.parse(exportFlowText(flow, 'flowyprompt'))).toEqual(original);
  });

  it('says each field seed 001 does not have, where it is and whether its export keeps it', () => {
    type Doc = {
      metadata: Record<string, unknown>;
      nodes: { position: Record<string, unknown>; data: Record<string, unknown> }[];
      edges: Record<string, unknown>[];
    } & Record<string, unknown>;
    const doc = JSON.parse(fixture('flowyprompt-marketing.json')) as Doc;
    doc.name = 'Marketing_Strategy';
    doc.metadata.author = 'ana';
    doc.nodes[1]!.data.model = 'gpt-4o';
    doc.nodes[1]!.position.z = 2;
    doc.edges[1]!.animated = true;
    const { problems } = detectImport(JSON.stringify(doc), 'edited.json');
    const kept = 'Flowbench keeps it for export but does not apply it';
    const warning = { code: 'IMPORT_PROBLEM', severity: 'warning' };
    expect(problems).toEqual([
      { ...warning, source: 'metadata.author', message: `not a field of a FlowyPrompt file; ${kept}` },
      {
        ...warning,
        source: 'nodes[1].position.z',
        nodeId: 'node-2',
        message: 'not a field of a FlowyPrompt file; left out',
      },
      {
        ...warning,
        source: 'nodes[1].data.model',
        nodeId: 'node-2',
        message: `not a field of a FlowyPrompt file; ${kept}`,
      },
      { ...warning, source: 'edges[1].animated', message: `not a field of a FlowyPrompt file; ${kept}` },
      {
        ...warning,
        source: 'name',
        message: 'not a field of a FlowyPrompt file (seed 001 has it in metadata.name); left out',
      },
    ]);
    // What the warnings say is kept is in the export, and what they say is left out is not.
    const { flow } = imported('edited.json', JSON.stringify(doc));
    const exported = JSON.parse(exportFlowText(flow, 'flowyprompt')) as Doc;
    expect(exported).not.toHaveProperty('name');
    expect(exported.metadata.author).toBe('ana');
    expect(exported.nodes[1]!.data.model).toBe('gpt-4o');
    expect(exported.nodes[1]!.position).toEqual({ x: 300, y: 100 });
    expect(exported.edges[1]!.animated).toBe(true);
  });

  it('writes edits back in FlowyPrompt syntax', () => {
    const { flow } = imported('flowyprompt-marketing.json');
    const edited = {
      ...flow,
      nodes: flow.nodes.map((n) =>
        n.id === 'node-3' ? { ...n, config: { template: 'Budget {{inputs.budget}} for {{nodes.node-2.output}}' } } : n,
      ),
    };
    const exported = JSON.parse(exportFlowText(edited, 'flowyprompt')) as {
      nodes: { id: string; data: { template?: string; variables?: string[] } }[];
    };
    expect(exported.nodes[2]?.data).toMatchObject({
      template: 'Budget {budget} for {node-2_result}',
      variables: ['budget', 'node-2_result'],
    });
  });

  it('enforces the seed rules with their codes', () => {
    const doc = JSON.parse(fixture('flowyprompt-marketing.json')) as {
      metadata: Record<string, unknown>;
      edges: unknown[];
    };
    const cyclic = {
      ...doc,
      edges: [...doc.edges, { id: 'edge-9', source: 'node-3', target: 'node-2', type: 'chain' }],
    };
    expect(() => detectImport(JSON.stringify(cyclic), 'cyclic.json')).toThrow(
      expect.objectContaining({
        code: 'CIRCULAR_DEPENDENCY',
        message: expect.stringContaining('node-2 → node-3 → node-2'),
      }),
    );
    const badMeta = { ...doc, metadata: { ...doc.metadata, name: 'has spaces', version: 'v1' } };
    expect(() => detectImport(JSON.stringify(badMeta), 'bad.json')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/metadata\.name.*metadata\.version: must be semver/),
      }),
    );
  });

  it('refuses to express model nodes', () => {
    const { flow } = imported('flow-definition-workshop.json');
    expect(() => exportFlowText(flow, 'flowyprompt')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_FORMAT' }));
  });
});

describe('flow definitions (seed 004)', () => {
  it('imports steps, transitions, overrides, memory and outputs, and reports what it cannot resolve', () => {
    const { flow, problems } = imported('flow-definition-workshop.json');
    expect(flow.parameters).toEqual([
      expect.objectContaining({ name: 'problemStatement', type: 'string', required: true }),
      expect.objectContaining({ name: 'constraints', type: 'array', required: false }),
    ]);
    const generate = flow.nodes.find((n) => n.id === 'generate_solution');
    expect(generate).toMatchObject({
      type: 'agent',
      label: 'Проектирование решения',
      config: {
        temperature: 0.2,
        maxTokens: 1500,
        agentVersionId: 'bbbbbbbb-1111-2222-3333-444444444444',
        memoryWrites: [{ channel: 'decision-log', mode: 'AGENT_OUTPUT' }],
      },
    });
    const edges = flow.edges.map((e) => `${e.source}.${e.sourcePort}>${e.target}`);
    expect(edges).toEqual(
      expect.arrayContaining([
        'input.out>gather_requirements',
        'gather_requirements.out>generate_solution',
        'gather_requirements.error>abort_flow',
        'generate_solution.out>review_solution',
        'review_solution.error>abort_flow',
        'review_solution.out>result',
        'abort_flow.out>result',
      ]),
    );
    expect(flow.nodes.find((n) => n.id === 'result')?.config).toMatchObject({
      mode: 'structured',
      fields: [
        { name: 'solution', value: '{{nodes.generate_solution.output.draft}}' },
        { name: 'nextActions', value: '{{nodes.review_solution.output.recommendations}}' },
      ],
    });
    // Agent versions resolve in the agent library (the import service creates unknown ones), not here.
    expect(problems).toEqual(['IMPORT_PROBLEM']);
  });

  it('gives steps the launch parameters and defaults.context, defaults.overrides where they set none, and keeps is_active: false out of MCP', () => {
    const doc = {
      ...(JSON.parse(fixture('flow-definition-minimal.json')) as Record<string, unknown>),
      is_active: false,
      defaults: { context: 'The shop sells bicycles.', overrides: { options: { temperature: 0.7, maxTokens: 800 } } },
    };
    const result = detectImport(JSON.stringify(doc), 'with-defaults.json');
    const flow = result.flow as unknown as Flow;
    expect(flow.tool.enabled).toBe(false);
    const steps = new Map(flow.nodes.map((n) => [n.id, n.config]));
    expect(steps.get('gather_requirements')).toMatchObject({
      system: 'Ты бизнес-аналитик. Собери контекст и требования.',
      prompt:
        'Context: The shop sells bicycles.\nproblemStatement: {{inputs.problemStatement}}\nconstraints: {{inputs.constraints}}',
      temperature: 0.7,
      maxTokens: 800,
    });
    // A step with its own overrides keeps them.
    expect(steps.get('generate_solution')).toMatchObject({ temperature: 0.2, maxTokens: 1500 });
    // Written back, no step gains overrides it took from the defaults.
    const valid = FlowSchema.parse({ ...flow, id: 'x' });
    const exported = JSON.parse(exportFlowText(valid, 'flow-definition-json')) as { steps: Record<string, unknown>[] };
    expect(exported.steps[0]?.overrides).toBeUndefined();
    expect(exported.steps[1]?.overrides).toEqual({ temperature: 0.2, maxTokens: 1500 });
  });

  it('round-trips every field of the format, in JSON and YAML', () => {
    const json = JSON.parse(fixture('flow-definition-workshop.json')) as Record<string, unknown>;
    expect(
      JSON.parse(exportFlowText(imported('flow-definition-workshop.json').flow, 'flow-definition-json')),
    ).toMatchObject(json);
    const yaml = parseYaml(fixture('flow-definition-workshop.yaml')) as Record<string, unknown>;
    expect(parseYaml(exportFlowText(imported('flow-definition-workshop.yaml').flow, 'flow-definition-yaml'))).toEqual(
      yaml,
    );
  });

  it('says that a per-conversation channel is left out of the export, which writes it as a shared channel', () => {
    const { flow } = imported('flow-definition-workshop.json');
    const chatty = { ...flow, memory: { channels: [{ id: 'context', retentionVersions: 3, perConversation: true }] } };
    expect(leftOutOf(chatty, 'flow-definition-json')).toEqual([
      'that memory channel "context" is per conversation (there, every run shares it)',
    ]);
    expect(leftOutOf(chatty, 'native')).toEqual([]);
    const written = JSON.parse(exportFlowText(chatty, 'flow-definition-json')) as {
      memory: { sharedChannels: unknown };
    };
    expect(written.memory.sharedChannels).toEqual([{ id: 'context', retentionVersions: 3 }]);
  });

  it('refuses a YAML alias bomb without expanding it', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from({ length: 9 }, (_, i) => {
        const prev = String.fromCharCode(97 + i);
        const next = String.fromCharCode(98 + i);
        return `${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`;
      }),
      'flowId: bomb',
      'steps: []',
    ].join('\n');
    expect(() => detectImport(bomb, 'bomb.yaml')).toThrow(
      expect.objectContaining({ code: 'INVALID_YAML', message: expect.stringContaining('alias') }),
    );
  });
});

describe('a flow definition with fields seed 004 does not have', () => {
  const definition = (edit: (doc: Record<string, unknown> & { steps: Record<string, unknown>[] }) => void) => {
    const doc = JSON.parse(fixture('flow-definition-minimal.json')) as Record<string, unknown> & {
      steps: Record<string, unknown>[];
    };
    edit(doc);
    return detectImport(JSON.stringify(doc), 'edited.json');
  };
  const unused = (problems: { source?: string; code: string }[]) =>
    problems.filter((p) => p.code === 'IMPORT_PROBLEM' && p.source !== undefined && !p.source.startsWith('memory'));

  it('says each where it is, on its step, instead of ignoring it; seed 004 itself has none', () => {
    expect(unused(definition(() => undefined).problems)).toEqual([]);
    const { problems } = definition((doc) => {
      doc.schedule = 'daily';
      doc.steps[0]!.retryPolicy = { maxAttempts: 3 };
      (doc.steps[1]!.overrides as Record<string, unknown>).topK = 40;
    });
    const kept = 'Flowbench keeps it for export but does not apply it';
    expect(unused(problems)).toEqual([
      {
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source: 'steps[0].retryPolicy',
        nodeId: 'gather_requirements',
        message: `not a field of a flow definition (seed 004 retired it: \`maxAttempts\` is the retry setting); ${kept}`,
      },
      {
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source: 'steps[1].overrides.topK',
        nodeId: 'generate_solution',
        message: `not a field of a flow definition; ${kept}`,
      },
      {
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source: 'schedule',
        message: `not a field of a flow definition; ${kept}`,
      },
    ]);
  });
});

describe('a flow definition channel with fields seed 004 does not have', () => {
  it('says each as left out, and does not apply a per-conversation setting the format cannot carry', () => {
    const doc = JSON.parse(fixture('flow-definition-minimal.json')) as Record<string, unknown>;
    doc.memory = { sharedChannels: [{ id: 'context', retentionDays: 7, perConversation: true, colour: 'blue' }] };
    const { flow, problems } = detectImport(JSON.stringify(doc), 'channels.json');
    expect((flow as { memory: unknown }).memory).toEqual({ channels: [{ id: 'context', retentionDays: 7 }] });
    expect(problems.filter((p) => p.source?.startsWith('memory.'))).toEqual([
      expect.objectContaining({
        source: 'memory.sharedChannels[0].perConversation',
        message: 'not a field of a flow definition; left out',
      }),
      expect.objectContaining({
        source: 'memory.sharedChannels[0].colour',
        message: 'not a field of a flow definition; left out',
      }),
    ]);
  });
});

describe('workflows (seed 003)', () => {
  it("says each field seed 003's models do not have, where it is, instead of ignoring it; its files have none", () => {
    const read = (edit: (doc: { workflow: Record<string, unknown>; steps: Record<string, unknown>[] }) => void) => {
      const doc = JSON.parse(fixture('workflow-summarize-label.json')) as Parameters<typeof edit>[0];
      edit(doc);
      return detectImport(JSON.stringify(doc), 'edited.json').problems.filter((p) =>
        p.message.startsWith('not a field'),
      );
    };
    expect(read(() => undefined)).toEqual([]);
    const kept = 'Flowbench keeps it for export but does not apply it';
    expect(
      read((doc) => {
        doc.workflow.schedule = 'daily';
        doc.steps[1]!.temperature = 0.3;
      }),
    ).toEqual([
      {
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source: 'workflow.schedule',
        message: `not a field of a workflow; ${kept}`,
      },
      {
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source: 'steps[1].temperature',
        nodeId: 'Labeler',
        message: `not a field of a workflow; ${kept}`,
      },
    ]);
  });

  it('imports the trigger and ordered steps with placeholders rewritten', () => {
    const { flow, problems } = imported('workflow-summarize-label.json');
    expect(flow.parameters).toEqual([
      expect.objectContaining({ name: 'trigger_output', description: 'The text of an incoming message.' }),
    ]);
    expect(flow.nodes.map((n) => [n.id, n.type])).toEqual([
      ['input', 'input'],
      ['Summarizer', 'llm'],
      ['Labeler', 'llm'],
      ['Spam_check', 'condition'],
      ['Spam_check_stop', 'stop'],
      ['Responder', 'agent'],
      ['result', 'output'],
    ]);
    expect(flow.nodes[1]?.config).toMatchObject({
      model: 'gpt-4o-mini',
      system: 'Summarize this message in two sentences: {{inputs.trigger_output}}',
    });
    expect(flow.nodes[2]?.config.system).toContain('{{nodes.Summarizer.output}}');
    expect(flow.nodes[3]?.config).toMatchObject({
      match: 'any',
      rules: [{ value: '{{nodes.Labeler.output}}', path: '$.label', operator: 'equals', operand: 'spam' }],
    });
    expect(flow.nodes[5]?.config).toMatchObject({ tools: [{ server: '', tool: 'search_docs' }] });
    expect(flow.edges.map((e) => `${e.source}.${e.sourcePort}>${e.target}`)).toEqual([
      'input.out>Summarizer',
      'Summarizer.out>Labeler',
      'Labeler.out>Spam_check',
      'Spam_check.true>Spam_check_stop',
      'Spam_check.false>Responder',
      'Responder.out>result',
    ]);
    // The agent's tool is looked up by name on the connected servers when it runs: nothing to fix here.
    expect(problems).toEqual([]);
  });

  it('exports only what a workflow can say: a branch or a user prompt is refused, naming the node', () => {
    const { flow } = imported('workflow-summarize-label.json');
    const branched = {
      ...flow,
      edges: [
        ...flow.edges,
        { id: 'extra', source: 'Summarizer', sourcePort: 'out', target: 'Responder', targetPort: 'in' },
      ],
    };
    expect(() => exportFlowText(FlowSchema.parse(branched), 'workflow')).toThrow(/branches after "Summarizer"/);
    const prompted = {
      ...flow,
      nodes: flow.nodes.map((n) => (n.id === 'Labeler' ? { ...n, config: { ...n.config, prompt: 'Label it.' } } : n)),
    };
    expect(() => exportFlowText(FlowSchema.parse(prompted), 'workflow')).toThrow(
      'a seed-003 workflow cannot express this flow: node "Labeler" has a user prompt; a workflow step has its system prompt only',
    );
  });
});

describe('tool flows (seed 000)', () => {
  it("says each field seed 000's types do not have: a parameter's is left out, the flow's own kept for export", () => {
    const doc = JSON.parse(fixture('tool-flow-return-values.json')) as Record<string, unknown> & {
      parameters: Record<string, unknown>[];
    };
    expect(detectImport(JSON.stringify(doc), 'file.json').problems).toEqual([]);
    doc.parameters[0]!.enum = ['monday', 'sunday'];
    doc.theme = 'dark';
    expect(detectImport(JSON.stringify(doc), 'file.json').problems).toEqual([
      {
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source: 'parameters[0].enum',
        message: 'not a field of a tool flow; left out',
      },
      {
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source: 'theme',
        message: 'not a field of a tool flow; Flowbench keeps it for export but does not apply it',
      },
    ]);
  });

  it('maps tool fields and keeps return values in their order through a native round trip', () => {
    const { flow } = imported('tool-flow-return-values.json');
    expect(flow.tool).toMatchObject({
      name: 'store_hours',
      description: "Returns the store's opening hours.",
      whenToUse: 'When someone asks when the store is open.',
      whenNotToUse: 'For holiday closures; those are announced separately.',
      enabled: true,
    });
    expect(flow.parameters).toEqual([expect.objectContaining({ name: 'day', required: false })]);
    const values = ['First return value: weekdays 9:00–18:00', 'Second return value: weekends 10:00–16:00'];
    expect((flow.nodes[1]?.config.returnValues as { text: string }[]).map((v) => v.text)).toEqual(values);
    const again = detectImport(exportFlowText(flow, 'native'), 'again.json');
    expect(
      ((again.flow.nodes as { config: { returnValues?: { text: string }[] } }[])[1]?.config.returnValues ?? []).map(
        (v) => v.text,
      ),
    ).toEqual(values);
  });
});

describe('native files', () => {
  const native = (extra: (file: Record<string, unknown>) => void) => {
    const { flow } = imported('tool-flow-return-values.json');
    const file = JSON.parse(exportFlowText(flow, 'native')) as Record<string, unknown>;
    extra(file);
    return detectImport(JSON.stringify(file), 'hand-edited.json');
  };

  it('say where each field a flow does not have is (a typo, a hand edit), instead of dropping it unsaid', () => {
    const result = native((file) => {
      file.retries = 3;
      // An own field, though every object inherits one of that name.
      Object.assign(file, { constructor: 'x' });
      (file.tool as Record<string, unknown>).descripton = 'misspelt';
      const [first, second] = file.nodes as Record<string, unknown>[];
      first!.confg = {};
      second!.timeout = 5000;
    });
    expect(result.format).toBe('native');
    expect(result.problems).toEqual([
      ...['tool.descripton', 'nodes[0].confg', 'nodes[1].timeout', 'retries', 'constructor'].map((source, i) => ({
        code: 'IMPORT_PROBLEM',
        severity: 'warning',
        source,
        message: 'not a field of a Flowbench flow; left out',
        ...(i === 1 ? { nodeId: 'input' } : i === 2 ? { nodeId: 'result' } : {}),
      })),
    ]);
    // The flow itself is what it was, without them.
    expect(FlowSchema.parse(result.flow)).toEqual(FlowSchema.parse(native(() => undefined).flow));
  });

  it('read a node’s "disabled": false as active, as leaving it out says, and true as deactivated', () => {
    const result = native((file) => {
      const [first, second] = file.nodes as Record<string, unknown>[];
      first!.disabled = true;
      second!.disabled = false;
    });
    expect(result.problems).toEqual([]);
    const [first, second] = FlowSchema.parse(result.flow).nodes;
    expect(first?.disabled).toBe(true);
    expect(second).not.toHaveProperty('disabled');
    // Anything else is still the schema's to refuse (the import says where).
    const other = native((file) => ((file.nodes as Record<string, unknown>[])[1]!.disabled = 'no'));
    expect(FlowSchema.safeParse(other.flow).success).toBe(false);
  });

  it('have none in what Flowbench exports, and list at most 20 of many, then count the rest', () => {
    expect(native(() => undefined).problems).toEqual([]);
    const many = native((file) => {
      for (let i = 0; i < 25; i++) file[`extra${i}`] = i;
    }).problems;
    expect(many).toHaveLength(21);
    expect(many[20]).toEqual({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      message: '5 more fields a Flowbench flow does not have were left out',
    });
  });
});

describe('detection', () => {
  it('refuses files of another kind and truncated files', () => {
    expect(() => detectImport('{"hello": "world"}', 'x.json')).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_FORMAT' }),
    );
    expect(() => detectImport('just some notes\nabout nothing', 'notes.txt')).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_FORMAT' }),
    );
    const text = fixture('flowyprompt-marketing.json');
    expect(() => detectImport(text.slice(0, text.length / 2), 'cut.json')).toThrow(
      expect.objectContaining({ code: 'INVALID_JSON' }),
    );
  });

  it('says what a hand-written Flowbench flow lacks when its nodes are there but its markers are not', () => {
    const node = { id: 'a', type: 'llm', config: { prompt: 'Hi' } };
    const handWritten = JSON.stringify({ name: 'Mine', nodes: [node], edges: [] });
    expect(() => detectImport(handWritten, 'mine.json')).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED_FORMAT',
        message: expect.stringContaining(
          'mine.json has nodes like a Flowbench flow but no `schemaVersion` and no `tool` object',
        ),
      }),
    );
    const withVersion = JSON.stringify({ schemaVersion: 1, nodes: [node], tool: 'mine' });
    expect(() => detectImport(withVersion, 'v.json')).toThrow(
      expect.objectContaining({
        message: expect.stringContaining('v.json has nodes like a Flowbench flow but no `tool` object'),
      }),
    );
    // Another tool's export (Flowise's nodes have data, not a config) gets the general answer.
    const flowise = JSON.stringify({ nodes: [{ id: 'a', type: 'customNode', data: {} }], edges: [] });
    expect(() => detectImport(flowise, 'flowise.json')).toThrow(
      expect.objectContaining({ message: expect.stringContaining('flowise.json is not a flow Flowbench can import') }),
    );
  });

  it('refuses a YAML file whose few aliases multiply one large string past the file limit (security finding 5)', () => {
    const big = 'x'.repeat(1_500_000);
    const amplified = [
      `big: &b "${big}"`,
      'flowId: amplified',
      'steps:',
      ...Array.from({ length: 90 }, (_, i) => `  - { id: s${i}, prompt: *b }`),
    ].join('\n');
    const heapBefore = process.memoryUsage().heapUsed;
    expect(() => detectImport(amplified, 'amplified.yaml')).toThrow(
      expect.objectContaining({
        code: 'INVALID_YAML',
        message: expect.stringContaining('expands to more than 10.0 MB'),
      }),
    );
    // Measured, not expanded: 90 × 1.5 MB would be 135 MB.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(60 * 1024 * 1024);
    // The same aliases under the limit import as before.
    const small = amplified.replace(big, 'short prompt');
    expect(detectImport(small, 'small.yaml').format).toBe('flow-definition');
  });

  it('reads JSON that starts with a UTF-8 byte order mark (security finding 8)', () => {
    const text = `\uFEFF${fixture('flowyprompt-marketing.json')}`;
    expect(detectImport(text, 'bom.json').format).toBe('flowyprompt');
  });
});
