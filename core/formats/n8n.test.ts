import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FlowSchema, type Flow } from '../model/flow';
import { renderTemplate } from '../model/render';
import { validateFlow } from '../model/validate';
import { nodeRegistry } from '../nodes/registry';
import { n8nChatTrigger } from '../../tests/helpers/n8n';
import { detectImport, type ImportProblem } from './detect';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../tests/fixtures/formats', name), 'utf8');

/** An n8n file as the store would hold it, with its import problems and the flow's own error codes. */
function imported(text: string): { flow: Flow; problems: ImportProblem[]; errors: string[] } {
  const result = detectImport(text, 'workflow.json');
  expect(result.format).toBe('n8n');
  const validated = validateFlow(
    {
      id: 'imported',
      ...result.flow,
      metadata: { ...(result.flow.metadata as object), importProblems: result.problems },
    },
    { catalogue: nodeRegistry },
  );
  if (!validated.flow) throw new Error(JSON.stringify(validated.problems));
  return {
    flow: FlowSchema.parse(validated.flow),
    problems: result.problems,
    errors: validated.problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.message}`),
  };
}

const node = (flow: Flow, id: string) => {
  const found = flow.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id} in ${flow.nodes.map((n) => n.id).join(', ')}`);
  return found;
};
const edges = (flow: Flow) => flow.edges.map((e) => `${e.source}.${e.sourcePort}>${e.target}`);

/** A workflow of the given nodes (name, type, parameters and node settings) joined in a chain by their main outputs. */
function workflow(nodes: Record<string, unknown>[], connections?: Record<string, unknown>): string {
  const chained: Record<string, unknown> = {};
  nodes.slice(0, -1).forEach((n, i) => {
    chained[n.name as string] = { main: [[{ node: nodes[i + 1]!.name, type: 'main', index: 0 }]] };
  });
  return JSON.stringify({
    name: 'Test',
    nodes: nodes.map((n, i) => ({ typeVersion: 1, position: [i * 220, 0], parameters: {}, ...n })),
    connections: connections ?? chained,
  });
}
const trigger = { name: 'Start', type: 'n8n-nodes-base.manualTrigger' };
/** An If's rule as n8n writes it. */
const rule = (operation: string, type: string, rightValue: unknown, leftValue = '={{ $json.chatInput }}') => ({
  leftValue,
  rightValue,
  operator: { type, operation },
});
const chat = n8nChatTrigger();

describe('n8n workflows', () => {
  it('imports a sub-workflow of Edit Fields, an LLM chain, a No-op, an If, an HTTP request and Stop and Error, node for node', () => {
    const { flow, problems, errors } = imported(fixture('n8n-triage.json'));
    expect(errors).toEqual([]);
    expect(flow.name).toBe('Ticket triage');
    expect(flow.parameters).toEqual([
      expect.objectContaining({ name: 'ticket', type: 'string', required: false }),
      expect.objectContaining({ name: 'priority', type: 'number', required: false }),
    ]);
    expect(flow.nodes.map((n) => [n.id, n.type])).toEqual([
      ['When_called_by_another_workflow', 'input'],
      ['Edit_Fields', 'code'],
      ['Classify', 'llm'],
      ['Is_billing', 'condition'],
      ['File_with_billing', 'http'],
      ['Stop_and_Error', 'code'],
      ['result', 'output'],
    ]);
    // The No-op is left out, the If's outputs are its true and false ports.
    expect(edges(flow)).toEqual([
      'When_called_by_another_workflow.out>Edit_Fields',
      'Edit_Fields.out>Classify',
      'Classify.out>Is_billing',
      'Is_billing.true>File_with_billing',
      'Is_billing.false>Stop_and_Error',
      'File_with_billing.out>result',
    ]);
    // Edit Fields: each field a value given to code returning them, a fixed boolean kept a boolean.
    expect(node(flow, 'Edit_Fields').config).toEqual({
      values: [
        { name: 'text', value: '{{inputs.ticket}}' },
        { name: 'team', value: 'support' },
      ],
      code: 'return { "text": values["text"], "team": values["team"], "urgent": true };',
    });
    expect(node(flow, 'Classify').config).toMatchObject({
      model: 'test-model',
      temperature: 0,
      system: 'Answer with one word.',
      prompt: 'Classify this ticket as billing or other: {{nodes.Edit_Fields.output.text}}',
    });
    // $('Classify').item.json.text is the chain's answer; startsWith is a regular expression.
    expect(node(flow, 'Is_billing').config).toMatchObject({
      match: 'all',
      rules: [{ value: '{{nodes.Classify.output}}', path: '$', operator: 'matches', operand: '^billing' }],
    });
    const http = node(flow, 'File_with_billing');
    expect(http.config).toMatchObject({
      method: 'POST',
      url: '{{nodes.Edit_Fields.output.team}}',
      headers: [{ name: 'X-Team', value: '{{nodes.Edit_Fields.output.team}}' }],
      body: '{"ticket": "{{nodes.Edit_Fields.output.text}}", "queue": "billing"}',
    });
    expect([http.timeoutMs, http.maxAttempts]).toEqual([5000, 2]);
    expect(node(flow, 'Stop_and_Error').config).toMatchObject({
      values: [{ name: 'message', value: 'Not a billing ticket: {{nodes.Classify.output}}' }],
      code: 'throw new Error(values.message);',
    });
    expect(flow.notes).toEqual([
      expect.objectContaining({
        text: '## Triage\nBilling tickets go to the billing queue.',
        color: 'blue',
        width: 728,
      }),
    ]);
    expect(problems.map((p) => [p.severity ?? 'error', p.source, p.message])).toEqual([
      [
        'warning',
        'nodes[3]',
        expect.stringContaining(
          'the model test-model is carried over, on Flowbench\'s default provider; n8n\'s credential "OpenAi account" is not',
        ),
      ],
      [
        'warning',
        'nodes[6]',
        expect.stringContaining('the flow returns what "File with billing" gives, from the output node result'),
      ],
    ]);
    // Every n8n node is kept in its node's metadata.
    expect(node(flow, 'Classify').metadata?.n8n).toMatchObject({ id: '1f0c3c1e-0003-4a4e-9d55-000000000003' });
  });

  it('folds an AI Agent’s chat model, MCP client tool and memory into the agent node', () => {
    const { flow, problems, errors } = imported(fixture('n8n-chat-agent.json'));
    expect(errors).toEqual([]);
    expect(flow.parameters).toEqual([expect.objectContaining({ name: 'chatInput', type: 'string', required: true })]);
    expect(flow.nodes.map((n) => n.type)).toEqual(['input', 'agent', 'output']);
    expect(node(flow, 'AI_Agent').config).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0.2,
      system: 'You answer questions about orders.',
      prompt: '{{inputs.chatInput}}',
      tools: [{ server: 'Orders_MCP', tool: 'find_order' }],
      maxSteps: 10,
      memoryReads: [{ channel: 'chat_memory', limit: 5 }],
      memoryWrites: [{ channel: 'chat_memory', mode: 'AGENT_OUTPUT' }],
    });
    expect(flow.memory.channels).toEqual([{ id: 'chat_memory', perConversation: true }]);
    expect(problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining(
        'add it as "Orders_MCP" (Agents → MCP servers, or `flowbench servers add Orders_MCP --url http://localhost:3001/mcp`)',
      ),
    );
    expect(problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining("n8n kept the person's messages too, Flowbench keeps the answers"),
    );
  });

  it('says each thing it cannot carry over, with where it is, and keeps it where it can', () => {
    const text = workflow([
      chat,
      {
        name: 'Shout',
        type: 'n8n-nodes-base.httpRequest',
        typeVersion: 4.2,
        parameters: {
          url: '=https://api.example.test/{{ $json.chatInput.toUpperCase() }}',
          authentication: 'genericCredentialType',
          options: { allowUnauthorizedCerts: true },
          somethingNew: 'x',
        },
      },
      { name: 'Tidy', type: 'n8n-nodes-base.code', parameters: { jsCode: 'return $input.all();' } },
      { name: 'Sheets', type: 'n8n-nodes-base.googleSheets', parameters: { operation: 'append' } },
    ]);
    const { flow, problems, errors } = imported(text);
    const said = problems.map((p) => [p.severity ?? 'error', p.source, p.message]);
    expect(said).toContainEqual([
      'error',
      'nodes[1].parameters.url',
      expect.stringContaining(
        'the n8n expression {{ $json.chatInput.toUpperCase() }} is kept as written: it computes in JavaScript',
      ),
    ]);
    expect(node(flow, 'Shout').config.url).toBe('https://api.example.test/{{ $json.chatInput.toUpperCase() }}');
    expect(said).toContainEqual([
      'error',
      'nodes[1].parameters.authentication',
      expect.stringContaining('its n8n credential is not carried over'),
    ]);
    expect(said).toContainEqual([
      'warning',
      'nodes[1].parameters.options.allowUnauthorizedCerts',
      expect.stringContaining('its option allowUnauthorizedCerts (true) is not carried over'),
    ]);
    expect(said).toContainEqual([
      'warning',
      'nodes[1].parameters.somethingNew',
      expect.stringContaining('its setting somethingNew ("x") is not carried over'),
    ]);
    // An unknown node keeps its place and connections as an empty template; the import says so.
    expect(node(flow, 'Sheets').type).toBe('template');
    expect(said).toContainEqual([
      'error',
      'nodes[3]',
      expect.stringContaining('n8n-nodes-base.googleSheets has no Flowbench counterpart'),
    ]);
    expect(edges(flow)).toEqual(['Chat.out>Shout', 'Shout.out>Tidy', 'Tidy.out>Sheets', 'Sheets.out>result']);
    // n8n's code is kept, said: it reads what Flowbench's does not have.
    expect(node(flow, 'Tidy').config).toEqual({
      values: [{ name: 'item', value: '{{nodes.Shout.output}}' }],
      code: 'return $input.all();',
    });
    expect(said).toContainEqual([
      'error',
      'nodes[2].parameters.jsCode',
      expect.stringContaining("n8n's code reads $input"),
    ]);
    // Errors block publishing until fixed: the flow says them as IMPORT_PROBLEM, besides its own reference errors.
    expect(errors.filter((e) => e.startsWith('IMPORT_PROBLEM'))).toHaveLength(4);
  });

  it("carries over an If's rules by type, and says a rule it has no operator for", () => {
    const text = workflow([
      chat,
      {
        name: 'Check',
        type: 'n8n-nodes-base.if',
        typeVersion: 2.2,
        parameters: {
          conditions: {
            combinator: 'or',
            conditions: [
              rule('gte', 'number', '3'),
              rule('endsWith', 'string', '?'),
              rule('notEmpty', 'string', ''),
              rule('true', 'boolean', ''),
              rule('notRegex', 'string', 'x'),
              rule('equals', 'string', '={{ $json.other }}'),
            ],
          },
        },
      },
    ]);
    const { flow, problems } = imported(text);
    expect(node(flow, 'Check').config).toEqual({
      match: 'any',
      rules: [
        { value: '{{inputs.chatInput}}', path: '$', operator: 'greater_or_equal', operand: 3 },
        { value: '{{inputs.chatInput}}', path: '$', operator: 'matches', operand: '\\?$' },
        { value: '{{inputs.chatInput}}', path: '$', operator: 'is_not_empty' },
        { value: '{{inputs.chatInput}}', path: '$', operator: 'equals', operand: true },
        { value: '{{inputs.chatInput}}', path: '$', operator: 'equals', operand: '' },
      ],
    });
    expect(problems.map((p) => [p.source, p.message])).toEqual([
      [
        'nodes[1].parameters.conditions.conditions[4]',
        expect.stringContaining('its string rule "notRegex" has no Flowbench operator'),
      ],
      [
        'nodes[1].parameters.conditions.conditions[5]',
        expect.stringContaining('compares with the expression ={{ $json.other }}'),
      ],
    ]);
  });

  it("reads $('Name'), $node[…] and $input forms; the answer of an agent is its output; a path n8n has and Flowbench does not is said", () => {
    const text = workflow([
      chat,
      { name: 'Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: 1.8, parameters: {} },
      {
        name: 'Say',
        type: 'n8n-nodes-base.set',
        typeVersion: 3.4,
        parameters: {
          assignments: {
            assignments: [
              { name: 'a', value: '={{ $json.output }}', type: 'string' },
              { name: 'b', value: "={{ $('Chat').first().json.chatInput }}", type: 'string' },
              { name: 'c', value: '={{ $node["Agent"].json["output"] }}', type: 'string' },
              { name: 'd', value: '={{ $input.item.json.intermediateSteps }}', type: 'string' },
              { name: 'e', value: "={{ $('Nobody').item.json.x }}", type: 'string' },
            ],
          },
        },
      },
    ]);
    const { flow, problems } = imported(text);
    expect(node(flow, 'Agent').config).toMatchObject({
      prompt: '{{inputs.chatInput}}',
      system: 'You are a helpful assistant',
    });
    expect((node(flow, 'Say').config.values as { value: string }[]).map((v) => v.value)).toEqual([
      '{{nodes.Agent.output}}',
      '{{inputs.chatInput}}',
      '{{nodes.Agent.output}}',
      '{{ $input.item.json.intermediateSteps }}',
      "{{ $('Nobody').item.json.x }}",
    ]);
    expect(problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        expect.stringContaining("this node's answer is read as .output (.intermediateSteps is not carried over)"),
        expect.stringContaining('there is no node "Nobody"'),
        expect.stringContaining('no chat model is attached'),
      ]),
    );
  });

  it('takes retries, an error output, deactivation and pinned data as node settings; other tools and a tool giving all its tools are said', () => {
    const doc = {
      name: 'Settings',
      nodes: [
        { ...chat, position: [0, 0], parameters: {} },
        {
          name: 'Fetch',
          type: 'n8n-nodes-base.httpRequest',
          typeVersion: 4.2,
          position: [200, 0],
          parameters: { url: 'https://api.example.test/a' },
          onError: 'continueErrorOutput',
        },
        {
          name: 'Fallback',
          type: '@n8n/n8n-nodes-langchain.agent',
          typeVersion: 1.8,
          position: [400, 100],
          parameters: {},
          disabled: true,
        },
        {
          name: 'Search',
          type: '@n8n/n8n-nodes-langchain.toolSerpApi',
          typeVersion: 1,
          position: [400, 300],
          parameters: {},
        },
        {
          name: 'Everything',
          type: '@n8n/n8n-nodes-langchain.mcpClientTool',
          typeVersion: 1,
          position: [500, 300],
          parameters: { sseEndpoint: 'http://127.0.0.1:9/sse' },
        },
      ],
      connections: {
        Chat: { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] },
        Fetch: { main: [[], [{ node: 'Fallback', type: 'main', index: 0 }]] },
        Search: { ai_tool: [[{ node: 'Fallback', type: 'ai_tool', index: 0 }]] },
        Everything: { ai_tool: [[{ node: 'Fallback', type: 'ai_tool', index: 0 }]] },
      },
      pinData: { Fetch: [{ json: { id: 7 } }, { json: { id: 8 } }] },
    };
    const { flow, problems } = imported(JSON.stringify(doc));
    expect(edges(flow)).toContain('Fetch.error>Fallback');
    expect(node(flow, 'Fetch').pin).toEqual({ output: { id: 7 } });
    expect(node(flow, 'Fallback').disabled).toBe(true);
    const said = problems.map((p) => [p.severity ?? 'error', p.source, p.message]);
    expect(said).toContainEqual([
      'warning',
      'nodes[1]',
      expect.stringContaining('only the first of its 2 pinned items is kept'),
    ]);
    expect(said).toContainEqual([
      'error',
      'nodes[3]',
      expect.stringContaining('its tool "Search" (n8n\'s toolSerpApi) has no Flowbench counterpart'),
    ]);
    expect(said).toContainEqual([
      'error',
      'nodes[4]',
      expect.stringContaining('"Everything" gives the agent every tool of its server'),
    ]);
    expect(said).toContainEqual([
      'warning',
      'nodes[4]',
      expect.stringContaining('the MCP server at http://127.0.0.1:9/sse'),
    ]);
  });

  it('a Merge waits for both branches and gives their items appended or combined; an Information Extractor is an LLM answering JSON; a workflow tool is a published flow', () => {
    const doc = {
      name: 'Merged',
      nodes: [
        { ...chat, position: [0, 0], parameters: {} },
        {
          name: 'Weather',
          type: 'n8n-nodes-base.httpRequest',
          typeVersion: 4.2,
          position: [200, -100],
          parameters: { url: 'https://api.example.test/weather' },
        },
        {
          name: 'Extract',
          type: '@n8n/n8n-nodes-langchain.informationExtractor',
          typeVersion: 1,
          position: [200, 100],
          parameters: {
            text: '={{ $json.chatInput }}',
            attributes: {
              attributes: [
                { name: 'city', type: 'string', description: 'The city asked about', required: true },
                { name: 'days', type: 'number' },
              ],
            },
          },
        },
        {
          name: 'Both',
          type: 'n8n-nodes-base.merge',
          typeVersion: 3,
          position: [400, 0],
          parameters: { mode: 'combine', combineBy: 'combineByPosition' },
        },
        {
          name: 'Planner',
          type: '@n8n/n8n-nodes-langchain.agent',
          typeVersion: 1.8,
          position: [600, 0],
          parameters: {},
        },
        {
          name: 'Book',
          type: '@n8n/n8n-nodes-langchain.toolWorkflow',
          typeVersion: 2,
          position: [600, 200],
          parameters: { workflowId: { __rl: true, value: 'Xy12', mode: 'list', cachedResultName: 'Book a trip' } },
        },
      ],
      connections: {
        Chat: {
          main: [
            [
              { node: 'Weather', type: 'main', index: 0 },
              { node: 'Extract', type: 'main', index: 0 },
            ],
          ],
        },
        Weather: { main: [[{ node: 'Both', type: 'main', index: 0 }]] },
        Extract: { main: [[{ node: 'Both', type: 'main', index: 1 }]] },
        Both: { main: [[{ node: 'Planner', type: 'main', index: 0 }]] },
        Book: { ai_tool: [[{ node: 'Planner', type: 'ai_tool', index: 0 }]] },
      },
    };
    const { flow, problems } = imported(JSON.stringify(doc));
    expect(node(flow, 'Both').config).toEqual({
      values: [
        { name: 'input1', value: '{{nodes.Weather.output}}' },
        { name: 'input2', value: '{{nodes.Extract.output}}' },
      ],
      code: 'return Object.assign({}, values.input1, { "output": values.input2 });',
    });
    expect(edges(flow)).toEqual(expect.arrayContaining(['Weather.out>Both', 'Extract.out>Both']));
    expect(node(flow, 'Extract').config).toMatchObject({
      prompt: '{{inputs.chatInput}}',
      outputFormat: 'json',
      jsonSchema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'The city asked about' }, days: { type: 'number' } },
        required: ['city'],
      },
    });
    expect(node(flow, 'Planner').config.tools).toEqual([{ server: 'flowbench', tool: 'Book_a_trip' }]);
    expect(problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining(
        'its tool "Book" is the published flow Book_a_trip: import the n8n workflow "Book a trip" too',
      ),
    );
  });

  it('a Switch is a chain of conditions, one a rule, the first that holds taking its branch; its fallback the last false', () => {
    const contains = (word: string) => ({
      conditions: {
        conditions: [
          {
            leftValue: '={{ $json.chatInput }}',
            rightValue: word,
            operator: { type: 'string', operation: 'contains' },
          },
        ],
        combinator: 'and',
      },
    });
    const set = (name: string, i: number) => ({
      name,
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [440, i * 200],
      parameters: {
        assignments: { assignments: [{ name: 'message', value: '={{ $json.chatInput }}', type: 'string' }] },
      },
    });
    const doc = {
      name: 'Routing',
      nodes: [
        { ...chat, position: [0, 0], parameters: {} },
        {
          name: 'Route',
          type: 'n8n-nodes-base.switch',
          typeVersion: 3.2,
          position: [220, 0],
          parameters: {
            rules: { values: [{ ...contains('refund'), renameOutput: true, outputKey: 'Refunds' }, contains('ship')] },
            options: { fallbackOutput: 'extra' },
          },
        },
        set('Refunds', 0),
        set('Shipping', 1),
        set('Other', 2),
      ],
      connections: {
        Chat: { main: [[{ node: 'Route', type: 'main', index: 0 }]] },
        Route: {
          main: [
            [{ node: 'Refunds', type: 'main', index: 0 }],
            [{ node: 'Shipping', type: 'main', index: 0 }],
            [{ node: 'Other', type: 'main', index: 0 }],
          ],
        },
      },
    };
    const { flow, errors } = imported(JSON.stringify(doc));
    expect(errors).toEqual([]);
    expect(flow.nodes.filter((n) => n.type === 'condition').map((n) => [n.id, n.label, n.config.rules])).toEqual([
      ['Route', 'Route', [{ value: '{{inputs.chatInput}}', path: '$', operator: 'contains', operand: 'refund' }]],
      [
        'Route_rule_2',
        'Route: rule 2',
        [{ value: '{{inputs.chatInput}}', path: '$', operator: 'contains', operand: 'ship' }],
      ],
    ]);
    expect(edges(flow)).toEqual(
      expect.arrayContaining([
        'Route.false>Route_rule_2',
        'Route.true>Refunds',
        'Route_rule_2.true>Shipping',
        'Route_rule_2.false>Other',
      ]),
    );
    // What follows a Switch reads its input, as it hands its item on.
    expect(node(flow, 'Refunds').config.values).toEqual([{ name: 'message', value: '{{inputs.chatInput}}' }]);
  });

  it('takes a node type or a rule named like what every object inherits (constructor, toString) as one it does not know', () => {
    const text = workflow([
      chat,
      {
        name: 'Check',
        type: 'n8n-nodes-base.if',
        typeVersion: 2.2,
        parameters: {
          conditions: {
            conditions: [rule('constructor', 'string', 'x')],
          },
        },
      },
      { name: 'Odd', type: 'constructor' },
      { name: 'Odder', type: 'toString' },
    ]);
    // Before, each threw a TypeError (a lookup in a plain object found Object's own function).
    const { flow, problems } = imported(text);
    expect(flow.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['Check', 'Odd', 'Odder']));
    const said = problems.map((p) => `${p.source}: ${p.message}`);
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^nodes\[1\]\.parameters\.conditions\.conditions\[0\]: .*"constructor" has no Flowbench operator/,
        ),
        expect.stringMatching(/^nodes\[2\].*constructor/),
        expect.stringMatching(/^nodes\[3\].*toString/),
      ]),
    );
  });

  it('takes any value where n8n has a setting without throwing anything but a clear refusal (a fuzzed file)', () => {
    // A small deterministic generator: the same files on every run (about two in three import).
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const types = [
      ...['manualTrigger', 'webhook', 'executeWorkflowTrigger', 'formTrigger', 'httpRequest', 'if', 'switch', 'filter'],
      ...['set', 'code', 'merge', 'respondToWebhook', 'stopAndError', 'executeWorkflow', 'noOp', 'stickyNote', 'slack'],
    ].map((t) => `n8n-nodes-base.${t}`);
    const ai = ['agent', 'chainLlm', 'openAi', 'lmChatOpenAi', 'mcpClientTool', 'memoryBufferWindow', 'textClassifier'];
    const junk = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 2 ? 5 : 8));
      if (kind === 0) return null;
      if (kind === 1) return random() > 0.5;
      if (kind === 2) return Math.floor(random() * 2000) - 1000;
      if (kind === 3) return pick(['', '={{ $json.a }}', "={{ $('N1').item.json }}", '=x {{ 1 + }}', 'text', '{{']);
      if (kind === 4) return pick([[], {}, 'selected', 'define', 'or']);
      if (kind === 5) return Array.from({ length: Math.floor(random() * 3) }, () => junk(depth + 1));
      const keys = [
        'parameters',
        'values',
        'conditions',
        'assignments',
        'rules',
        'options',
        'url',
        'text',
        'value',
        'name',
      ];
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(keys), junk(depth + 1)]));
    };
    for (let file = 0; file < 300; file++) {
      const count = 1 + Math.floor(random() * 6);
      const nodes = Array.from({ length: count }, (_, i) => ({
        name: `N${i}`,
        type: random() > 0.3 ? pick(types) : `@n8n/n8n-nodes-langchain.${pick(ai)}`,
        typeVersion: pick([1, 2, 3, 3.4, 4.2, 1.8, 'x']),
        position: pick([[i * 200, 0], 'nowhere', [null, 3]]),
        parameters: junk(0),
        ...(random() > 0.8
          ? { onError: pick(['continueErrorOutput', 'continueRegularOutput']), retryOnFail: true }
          : {}),
      }));
      const connections = Object.fromEntries(
        nodes.map((n) => [
          n.name,
          {
            [pick(['main', 'ai_tool', 'ai_languageModel', 'ai_memory'])]: [
              [{ node: `N${Math.floor(random() * (count + 1))}`, index: pick([0, 1, 'x']) }],
              junk(2),
            ],
          },
        ]),
      );
      const text = JSON.stringify({ name: pick(['W', '', 42]), nodes, connections, pinData: junk(1) });
      try {
        const result = detectImport(text, `fuzz-${file}.json`);
        // What it gives is a flow the store validates as it would any import.
        expect(validateFlow({ id: 'fuzz', ...result.flow }, { catalogue: nodeRegistry }).flow).toBeDefined();
      } catch (error) {
        expect((error as Error).name, `file ${file}: ${(error as Error).stack}`).toBe('FlowbenchError');
      }
    }
  });

  it("an MCP Server Trigger's tools are what to publish, said; a sub-node attached where nothing takes it is said, not dropped", () => {
    const doc = {
      name: 'Tools',
      nodes: [
        {
          name: 'MCP Server',
          type: '@n8n/n8n-nodes-langchain.mcpTrigger',
          typeVersion: 2,
          position: [0, 0],
          parameters: { path: 'x' },
        },
        {
          name: 'Lookup',
          type: '@n8n/n8n-nodes-langchain.toolWorkflow',
          typeVersion: 2,
          position: [0, 200],
          parameters: { workflowId: { __rl: true, value: 'a1', cachedResultName: 'Find an order' } },
        },
        {
          name: 'Chain',
          type: '@n8n/n8n-nodes-langchain.chainLlm',
          typeVersion: 1.5,
          position: [300, 0],
          parameters: {},
        },
        {
          name: 'Calculator',
          type: '@n8n/n8n-nodes-langchain.toolCalculator',
          typeVersion: 1,
          position: [300, 200],
          parameters: {},
        },
      ],
      connections: {
        Lookup: { ai_tool: [[{ node: 'MCP Server', type: 'ai_tool', index: 0 }]] },
        Calculator: { ai_tool: [[{ node: 'Chain', type: 'ai_tool', index: 0 }]] },
      },
    };
    const { problems } = imported(JSON.stringify(doc));
    const said = problems.map((p) => [p.severity ?? 'error', p.source, p.message]);
    expect(said).toContainEqual([
      'error',
      'nodes[0]',
      expect.stringContaining(
        'it serves its tools ("Find an order") to MCP clients; Flowbench serves each published flow as a tool of its own MCP server',
      ),
    ]);
    expect(said).toContainEqual([
      'warning',
      'nodes[3]',
      'n8n node "Calculator" (@n8n/n8n-nodes-langchain.toolCalculator) is attached to "Chain" as its tool; the Flowbench node that became takes none, so it is left out',
    ]);
  });

  it('two nodes of one name (a file edited by hand): the connections are the last one’s, the other is kept, renamed and said', () => {
    const set = (value: string) => ({
      name: 'Shape',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      parameters: { assignments: { assignments: [{ name: 'text', type: 'string', value }] } },
    });
    const { flow, problems, errors } = imported(
      workflow([trigger, set('first'), set('second')], {
        Start: { main: [[{ node: 'Shape', type: 'main', index: 0 }]] },
      }),
    );
    expect(errors.filter((error) => /^(INVALID_CONFIG|DUPLICATE_NODE_ID) /.test(error))).toEqual([]);
    expect(node(flow, 'Shape').config).toMatchObject({ values: [{ name: 'text', value: 'second' }] });
    expect(node(flow, 'Shape_2')).toMatchObject({ label: 'Shape 2', config: { values: [{ value: 'first' }] } });
    expect(edges(flow).filter((edge) => edge.startsWith('Start'))).toEqual(['Start.out>Shape']);
    expect(problems).toContainEqual(
      expect.objectContaining({
        nodeId: 'Shape_2',
        source: 'nodes[1]',
        message: expect.stringContaining(
          'n8n node "Shape": another node after it has the same name, and connections name the nodes they join, so they are read as the other one\'s; this one is kept as "Shape 2" with no connection',
        ),
      }),
    );
  });

  it('an Edit Fields node of 60 fields, one named by an expression of 300 characters, is a code node returning them all', () => {
    const expression = `={{ ${'$json.a + '.repeat(30)}1 }}`;
    const fields = [
      { name: expression, type: 'string', value: 'named by an expression' },
      ...Array.from({ length: 59 }, (_, i) => ({ name: `f${i}`, type: 'string', value: `={{ $json.v${i} }}` })),
    ];
    const { flow, problems, errors } = imported(
      workflow([
        trigger,
        {
          name: 'Fields',
          type: 'n8n-nodes-base.set',
          typeVersion: 3.4,
          parameters: { assignments: { assignments: fields } },
        },
      ]),
    );
    expect(errors.filter((error) => /^(INVALID_CONFIG|DUPLICATE_NODE_ID) /.test(error))).toEqual([]);
    const config = node(flow, 'Fields').config as { values: { name: string; value: string }[]; code: string };
    expect(config.values).toHaveLength(60);
    expect(config.values[0]).toEqual({ name: 'field_1', value: 'named by an expression' });
    expect(config.code).toContain(`${JSON.stringify(expression)}: values["field_1"]`);
    expect(config.code).toContain('"f58": values["f58"]');
    expect(problems).toContainEqual(
      expect.objectContaining({
        source: 'nodes[1].parameters.assignments.assignments[0].name',
        message: expect.stringMatching(
          /^n8n node "Fields": its field's name is an expression \("=\{\{ \$json\.a \+ .*…\), which n8n works out as the node runs; here the field is named by its text: rewrite it in the code$/,
        ),
      }),
    );
  });

  it('a connection back to an earlier node (polling until done) is a loop edge with a limit, said; one a loop cannot hold is left out, said', () => {
    const fetchJob = { name: 'Fetch', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: {} };
    const done = {
      name: 'Done?',
      type: 'n8n-nodes-base.if',
      typeVersion: 2.2,
      parameters: { conditions: { combinator: 'and', conditions: [rule('notEmpty', 'string', '')] } },
    };
    const report = { name: 'Report', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: {} };
    const polling = imported(
      workflow([trigger, fetchJob, done, report], {
        Start: { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] },
        Fetch: { main: [[{ node: 'Done?', type: 'main', index: 0 }]] },
        'Done?': {
          main: [[{ node: 'Report', type: 'main', index: 0 }], [{ node: 'Fetch', type: 'main', index: 0 }]],
        },
      }),
    );
    expect(polling.errors.filter((error) => !error.startsWith('IMPORT_PROBLEM'))).toEqual([]);
    expect(polling.flow.edges.find((edge) => edge.source === 'Done' && edge.target === 'Fetch')).toMatchObject({
      sourcePort: 'false',
      loop: { maxIterations: 100 },
    });
    expect(polling.problems).toContainEqual({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      nodeId: 'Done',
      source: 'connections["Done?"]',
      message:
        'n8n node "Done?" goes back to "Fetch", which n8n repeats with no limit; here it is a loop edge of at most 100 passes (a run needing more fails LOOP_LIMIT): set the limit on the edge',
    });

    // Both of an If's branches going back: a node goes back to one place only. (The connection after the
    // one left out gave the result's edge its id too.)
    const log = { name: 'Log', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: {} };
    const twice = imported(
      workflow([trigger, fetchJob, report, done, log, { ...log, name: 'Tail' }], {
        Start: { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] },
        Fetch: { main: [[{ node: 'Report', type: 'main', index: 0 }]] },
        Report: {
          main: [
            [
              { node: 'Done?', type: 'main', index: 0 },
              { node: 'Log', type: 'main', index: 0 },
            ],
          ],
        },
        'Done?': {
          main: [[{ node: 'Fetch', type: 'main', index: 0 }], [{ node: 'Report', type: 'main', index: 0 }]],
        },
        Log: { main: [[{ node: 'Tail', type: 'main', index: 0 }]] },
      }),
    );
    expect(new Set(twice.flow.edges.map((edge) => edge.id)).size).toBe(twice.flow.edges.length);
    expect(twice.flow.edges.map((edge) => `${edge.source}>${edge.target}`)).toContain('Tail>result');
    expect(twice.errors.filter((error) => !error.startsWith('IMPORT_PROBLEM'))).toEqual([]);
    expect(twice.flow.edges.filter((edge) => edge.source === 'Done').map((edge) => edge.target)).toEqual(['Fetch']);
    expect(twice.problems).toContainEqual(
      expect.objectContaining({
        nodeId: 'Done',
        message: expect.stringMatching(
          /^n8n node "Done\?" goes back to "Report", a loop a Flowbench flow cannot hold \(node "Done" starts two loop edges .*\); that connection is left out: rebuild the loop$/,
        ),
      }),
    );
  });

  it('a node after a Respond to Webhook (n8n answers and goes on) is not joined to the output node, said', () => {
    const { flow, problems, errors } = imported(
      workflow([
        trigger,
        {
          name: 'Respond',
          type: 'n8n-nodes-base.respondToWebhook',
          parameters: { respondWith: 'text', responseBody: 'ok' },
        },
        { name: 'Log', type: 'n8n-nodes-base.set', typeVersion: 3.4, parameters: {} },
      ]),
    );
    expect(errors.filter((error) => !/^(IMPORT_PROBLEM|UNREACHABLE_NODE) /.test(error))).toEqual([]);
    expect(flow.edges.filter((edge) => edge.source === 'Respond')).toEqual([]);
    expect(problems).toContainEqual(
      expect.objectContaining({
        nodeId: 'Respond',
        source: 'connections["Respond"].main[0]',
        message:
          'n8n node "Respond" goes on to "Log" after it answers; a Flowbench run ends where it answers, so that connection is left out: move what comes after it before it',
      }),
    );
  });

  it('fixed text with {{ … }} in it stays text, sent as n8n sends it; a connection into a trigger is left out, said', () => {
    const yaml = 'run: curl -H "Authorization: Bearer ${{ secrets.GITHUB_TOKEN }}" -d "{{ inputs.x }}" {{ $json }}';
    const { flow, problems, errors } = imported(
      workflow(
        [
          trigger,
          { name: 'Hook', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { path: 'x' } },
          {
            name: 'Files',
            type: 'n8n-nodes-base.set',
            typeVersion: 3.4,
            parameters: { assignments: { assignments: [{ name: 'yml', type: 'string', value: yaml }] } },
          },
        ],
        {
          Start: { main: [[{ node: 'Hook', type: 'main', index: 0 }]] },
          Hook: { main: [[{ node: 'Files', type: 'main', index: 0 }]] },
        },
      ),
    );
    expect(errors.filter((error) => !error.startsWith('IMPORT_PROBLEM '))).toEqual([]);
    const [value] = (node(flow, 'Files').config as { values: { value: string }[] }).values;
    expect(value?.value).toBe(
      'run: curl -H "Authorization: Bearer ${{ "{{" }} secrets.GITHUB_TOKEN }}" -d "{{ "{{" }} inputs.x }}" {{ "{{" }} $json }}',
    );
    expect(renderTemplate(value?.value ?? '', { inputs: { x: 'no' }, node: () => undefined })).toBe(yaml);
    expect(problems.filter((problem) => problem.nodeId === 'Files')).toEqual([]);
    expect(edges(flow)).not.toContain('Start.out>Hook');
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          nodeId: 'Start',
          message:
            'n8n node "Start" is connected into the trigger "Hook", which starts a run and takes nothing in: that connection is left out',
        }),
      ]),
    );
  });

  it('a langchain node named like a sub-node but joined by main connections (a vector store inserting) keeps its place, said', () => {
    const { flow, problems } = imported(
      workflow([
        trigger,
        {
          name: 'Store',
          type: '@n8n/n8n-nodes-langchain.vectorStoreInMemory',
          typeVersion: 1,
          parameters: { mode: 'insert' },
        },
        {
          name: 'Wipe',
          type: '@n8n/n8n-nodes-langchain.memoryManager',
          typeVersion: 1,
          parameters: { mode: 'delete' },
        },
      ]),
    );
    expect(edges(flow)).toEqual(expect.arrayContaining(['Start.out>Store', 'Store.out>Wipe']));
    expect(node(flow, 'Store')).toMatchObject({ type: 'template', config: { template: '' } });
    expect(problems).toContainEqual(
      expect.objectContaining({
        nodeId: 'Wipe',
        message: expect.stringContaining(
          'n8n node "Wipe": @n8n/n8n-nodes-langchain.memoryManager has no Flowbench counterpart: it is an empty template here, kept for its place and connections',
        ),
      }),
    );
  });

  it("an Auto-fixing Output Parser on a chain gives the chain its inner parser's schema; the fixing is said not to be carried over", () => {
    const sub = (name: string, type: string, parameters: Record<string, unknown> = {}) => ({
      name,
      type: `@n8n/n8n-nodes-langchain.${type}`,
      typeVersion: 1,
      position: [0, 200],
      parameters,
    });
    const { flow, problems } = imported(
      workflow(
        [
          trigger,
          sub('Chain', 'chainLlm', { promptType: 'define', text: 'Classify', hasOutputParser: true }),
          sub('Model', 'lmChatOpenAi', { model: 'gpt-4o-mini' }),
          sub('Fixer', 'outputParserAutofixing'),
          sub('Fixer model', 'lmChatOpenAi', { model: 'gpt-4o-mini' }),
          sub('Shape', 'outputParserStructured', { jsonSchemaExample: '{"label": "bug", "urgent": true}' }),
        ],
        {
          Start: { main: [[{ node: 'Chain', type: 'main', index: 0 }]] },
          Model: { ai_languageModel: [[{ node: 'Chain', type: 'ai_languageModel', index: 0 }]] },
          Fixer: { ai_outputParser: [[{ node: 'Chain', type: 'ai_outputParser', index: 0 }]] },
          'Fixer model': { ai_languageModel: [[{ node: 'Fixer', type: 'ai_languageModel', index: 0 }]] },
          Shape: { ai_outputParser: [[{ node: 'Fixer', type: 'ai_outputParser', index: 0 }]] },
        },
      ),
    );
    expect(node(flow, 'Chain').config).toMatchObject({
      outputFormat: 'json',
      jsonSchema: { type: 'object', properties: { label: { type: 'string' }, urgent: { type: 'boolean' } } },
    });
    expect(problems).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        source: 'nodes[3]',
        message:
          'n8n node "Fixer": its output parser "Fixer" has a model fix an answer that does not fit "Shape"\'s schema; here such an answer fails the node (its retries ask again)',
      }),
    );
    expect(problems.map((p) => p.message)).not.toContainEqual(expect.stringContaining('"Shape" is not carried over'));
  });

  it("a Wait after a time is a wait node handing its item on, with n8n's defaults of each version; what it cannot keep is said", () => {
    const waitNode = (parameters: Record<string, unknown>, typeVersion = 1.1) => ({
      name: 'Pause',
      type: 'n8n-nodes-base.wait',
      typeVersion,
      parameters,
    });
    const fetchJob = {
      name: 'Fetch',
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 4.2,
      parameters: { url: 'https://api.example.com/job' },
    };
    const report = {
      name: 'Report',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      parameters: { assignments: { assignments: [{ name: 'status', value: '={{ $json.status }}', type: 'string' }] } },
    };
    const pausing = (parameters: Record<string, unknown>, typeVersion?: number) => {
      const result = imported(workflow([trigger, fetchJob, waitNode(parameters, typeVersion), report]));
      expect(result.errors.filter((error) => !error.startsWith('IMPORT_PROBLEM'))).toEqual([]);
      return {
        ...result,
        config: node(result.flow, 'Pause').config,
        said: result.problems.filter((p) => p.nodeId === 'Pause').map((p) => p.message),
      };
    };

    const thirty = pausing({ amount: 30, unit: 'seconds' });
    expect(node(thirty.flow, 'Pause').type).toBe('wait');
    expect(thirty.config).toEqual({ amount: 30, unit: 'seconds', value: '{{nodes.Fetch.output}}' });
    expect(thirty.said).toEqual([]);
    // `$json` after the wait is the item that came into it: the HTTP request's answer.
    expect(JSON.stringify(node(thirty.flow, 'Report').config)).toContain('{{nodes.Fetch.output.status}}');
    expect(edges(thirty.flow)).toEqual(expect.arrayContaining(['Fetch.out>Pause', 'Pause.out>Report']));

    // Parameters left at their default are not written: 5 seconds since version 1.1, 1 hour before.
    expect(pausing({}).config).toMatchObject({ amount: 5, unit: 'seconds' });
    expect(pausing({}, 1).config).toMatchObject({ amount: 1, unit: 'hours' });
    expect(pausing({ amount: 0.5, unit: 'days' }).config).toMatchObject({ amount: 12, unit: 'hours' });

    const days = pausing({ amount: 2, unit: 'days' });
    expect(days.config).toMatchObject({ amount: 24, unit: 'hours' });
    expect(days.said).toEqual([
      'n8n node "Pause": it waits 2 days, longer than a Flowbench run waits: here it waits 24 hours (n8n keeps a waiting run on disk; Flowbench waits in the running app)',
    ]);
    const computed = pausing({ amount: '={{ $json.retryAfter }}', unit: 'seconds' });
    expect(computed.config).toMatchObject({ amount: 5, unit: 'seconds' });
    expect(computed.said).toEqual([
      'n8n node "Pause": its wait is an expression ("={{ $json.retryAfter }}"), which n8n works out as the node runs: here it waits 5 seconds; set the wait',
    ]);
    expect(pausing({ amount: 1000, unit: 'milliseconds' }).said).toEqual([
      'n8n node "Pause": its unit "milliseconds" is none n8n knows (the node fails there): here it waits 5 seconds',
    ]);
    // Polling until done: the status request reads the request that started the job on the first pass, not
    // itself (its input coming back round the loop, first in the file, is not the one `$json` reads).
    const submit = { ...fetchJob, name: 'Submit', parameters: { method: 'POST', url: 'https://api.example.com/jobs' } };
    const status = { ...fetchJob, parameters: { url: '=https://api.example.com/jobs/{{ $json.request_id }}' } };
    const done = {
      name: 'Done?',
      type: 'n8n-nodes-base.if',
      typeVersion: 2.2,
      parameters: {
        conditions: { combinator: 'and', conditions: [rule('equals', 'string', 'done', '={{ $json.status }}')] },
      },
    };
    /** Submit, then Fetch polled (Pause going back to it) until Done?; the loop's way back listed first. */
    const poll = (more: Record<string, unknown> = {}) =>
      imported(
        workflow([trigger, submit, status, done, waitNode({ amount: 10 }), report], {
          Pause: { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] },
          Start: { main: [[{ node: 'Submit', type: 'main', index: 0 }]] },
          Submit: { main: [[{ node: 'Fetch', type: 'main', index: 0 }]] },
          Fetch: { main: [[{ node: 'Done?', type: 'main', index: 0 }]] },
          'Done?': {
            main: [[{ node: 'Report', type: 'main', index: 0 }], [{ node: 'Pause', type: 'main', index: 0 }]],
          },
          ...more,
        }),
      );
    const polling = poll();
    expect(polling.errors.filter((error) => !error.startsWith('IMPORT_PROBLEM'))).toEqual([]);
    expect(node(polling.flow, 'Fetch').config).toMatchObject({
      url: 'https://api.example.com/jobs/{{nodes.Submit.output.request_id}}',
    });
    expect(node(polling.flow, 'Pause').config).toEqual({
      amount: 10,
      unit: 'seconds',
      value: '{{nodes.Fetch.output}}',
    });
    expect(polling.flow.edges.find((edge) => edge.source === 'Pause')).toMatchObject({ target: 'Fetch', loop: {} });
    // Inside a loop over jobs (the report going back to submit the next): both inputs of the status request
    // come round a loop, and the first pass is still the one from Submit.
    const jobs = poll({ Report: { main: [[{ node: 'Submit', type: 'main', index: 0 }]] } });
    expect(node(jobs.flow, 'Fetch').config).toMatchObject({
      url: 'https://api.example.com/jobs/{{nodes.Submit.output.request_id}}',
    });

    const approval = pausing({ resume: 'webhook', httpMethod: 'POST', options: {} });
    expect(approval.config).toMatchObject({ amount: 0, unit: 'seconds' });
    expect(approval.said).toEqual([
      'n8n node "Pause": it waits for a call to its resume URL, which Flowbench does not do: here it waits no time (an ask node asks a person and waits for the answer)',
    ]);
  });

  it('refuses a workflow with no node to run, and is not taken for another format', () => {
    expect(() =>
      detectImport(
        workflow([{ name: 'Note', type: 'n8n-nodes-base.stickyNote', parameters: { content: 'hi' } }]),
        'w.json',
      ),
    ).toThrow('the n8n workflow has no node Flowbench can run');
    expect(detectImport(fixture('flowyprompt-marketing.json'), 'f.json').format).toBe('flowyprompt');
    // Without connections it is no n8n file.
    expect(() => detectImport(JSON.stringify({ nodes: [trigger] }), 'w.json')).toThrow(
      /not a flow Flowbench can import/,
    );
  });
});
