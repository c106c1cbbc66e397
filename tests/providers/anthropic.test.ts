import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FlowInput } from '../../core/model/flow';
import type { RunRecord } from '../../core/model/run';
import { openServices, type Services } from '../../core/services/open-services';
import { startAnthropicServer, type AnthropicServer } from '../helpers/anthropic-server';
import { runCli } from '../helpers/cli';
import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { TINY_PNG_BASE64 } from '../helpers/images';
import { connectStdio, prepareDatabase, publishFlows } from '../helpers/mcp';
import { everythingStdio } from '../helpers/mcp-servers';
import type { ReplyFn } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let claude: AnthropicServer;
let services: Services | undefined;
beforeAll(async () => {
  claude = await startAnthropicServer();
});
afterAll(() => claude.close());
afterEach(async () => {
  await services?.servers.close();
  services?.close();
  services = undefined;
});

const PROVIDER = { name: 'claude', kind: 'anthropic', apiKey: 'sk-ant-test', defaultModel: 'claude-test' } as const;

function open(reply: ReplyFn): Services {
  claude.reply = reply;
  claude.requests.length = 0;
  services = openServices(join(tempDir(), 'flowbench.db'));
  services.providers.set({ ...PROVIDER, baseUrl: claude.url }, true);
  services.servers.set(everythingStdio());
  return services;
}

const sayFlow = (prompt: string): FlowInput => ({
  ...buildFlow({
    id: 'say',
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [input(), llm('say', prompt, { system: 'Be brief.' }), output('{{nodes.say.output}}')],
    edges: ['input>say', 'say>result'],
  }),
  tool: { name: 'say' },
});

describe("the anthropic provider kind, against a local server of Anthropic's Messages API", () => {
  it.each([
    ['answered whole', false],
    ['streamed', true],
  ])(
    'runs an llm node: the key, the system prompt and the prompt as Claude takes them; its answer, usage and warnings (%s)',
    async (_, streamTokens) => {
      const s = open(() => ({ chunks: ['Sea ', 'otters.'], usage: { prompt_tokens: 12, completion_tokens: 3 } }));
      const flow = s.flows.create(sayFlow('About {{inputs.topic}}'));
      const run = await s.runner.run({ flow, inputs: { topic: 'otters' }, trigger: 'cli', streamTokens });
      expect(run.status).toBe('succeeded');
      expect(run.output).toMatchObject({ values: [{ text: 'Sea otters.' }] });
      const request = claude.requests[0];
      expect(request?.path).toBe('/v1/messages');
      expect(request?.headers['x-api-key']).toBe('sk-ant-test');
      expect(request?.headers['anthropic-version']).toBe('2023-06-01');
      expect(request?.body).toMatchObject({
        model: 'claude-test',
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'About otters' }] }],
      });
      expect(request?.body.stream === true).toBe(streamTokens);
      const step = s.runs.get(run.id).steps.find((x) => x.nodeId === 'say');
      expect(step?.usage).toMatchObject({ inputTokens: 12, outputTokens: 3 });
      // The AI SDK does not know the model "claude-test": the step says its output limit is a guess.
      expect(step?.warnings).toEqual([expect.stringMatching(/^maxOutputTokens is used in a compatibility mode/)]);
    },
  );

  it('sends a picture in the prompt as an image block of its bytes', async () => {
    const s = open(() => ({ content: 'A dot.' }));
    const flow = s.flows.create(sayFlow('What is in {{inputs.topic}}?'));
    const run = await s.runner.run({
      flow,
      inputs: { topic: `data:image/png;base64,${TINY_PNG_BASE64}` },
      trigger: 'cli',
    });
    expect(run.status).toBe('succeeded');
    expect(claude.requests[0]?.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in [image 1]?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: TINY_PNG_BASE64 } },
        ],
      },
    ]);
  });

  it("runs an agent's tool loop: tool_use, the tool's result, and the picture it answered with in the same user turn", async () => {
    const s = open((request, index) =>
      index === 0
        ? { toolCalls: [{ name: 'get-tiny-image', arguments: {}, id: 'toolu_logo' }] }
        : { content: 'A logo.' },
    );
    const flow = s.flows.create(
      buildFlow({
        nodes: [
          input(),
          {
            id: 'agent',
            type: 'agent',
            config: { prompt: 'Look', tools: [{ server: 'everything', tool: 'get-tiny-image' }] },
          },
          output('{{nodes.agent.output}}'),
        ],
        edges: ['input>agent', 'agent>result'],
      }),
    );
    const run = await s.runner.run({ flow, inputs: {}, trigger: 'cli' });
    expect(run.status).toBe('succeeded');
    expect(run.output).toMatchObject({ values: [{ text: 'A logo.' }] });
    const offered = claude.requests[0]?.body.tools as { name: string; input_schema: unknown }[];
    expect(offered.map((t) => t.name)).toEqual(['get-tiny-image']);
    const [, assistant, user] = claude.requests[1]?.body.messages ?? [];
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_logo', name: 'get-tiny-image', input: {} }],
    });
    // Claude takes the tool's result and the user's picture in one user turn.
    expect(user).toMatchObject({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_logo',
          content: "Here's the image you requested:\n[image 1]\nThe image above is the MCP logo.",
        },
        { type: 'text', text: 'The image get-tiny-image answered with (call toolu_logo):' },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
        },
      ],
    });
  });

  it('a refused key is PROVIDER_AUTH_FAILED with what the API said', async () => {
    const s = open(() => ({
      status: 401,
      body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }),
    }));
    const flow = s.flows.create(sayFlow('hi'));
    const run = await s.runner.run({ flow, inputs: { topic: 'x' }, trigger: 'cli' });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'PROVIDER_AUTH_FAILED', nodeId: 'say' });
    expect(run.error?.message).toContain('invalid x-api-key');
  });

  // The AI SDK logs what a model does not take (here: a model name it does not know, so its output
  // limit is a guess) with console.info and console.warn, which write to stdout: the channel of
  // `flowbench mcp`'s JSON-RPC and of `--json` output. An agent's loop goes through it.
  it("says the AI SDK's warnings on stderr, never on stdout: `run --json` stays JSON and `flowbench mcp` speaks only JSON-RPC; `runs show` says them under their step", async () => {
    claude.reply = () => ({ content: 'Otters.' });
    const db = join(tempDir(), 'cli.db');
    prepareDatabase(db, (prepared) => {
      prepared.providers.set({ ...PROVIDER, baseUrl: claude.url }, true);
      publishFlows(prepared, [
        {
          ...buildFlow({
            id: 'say',
            parameters: [{ name: 'topic', type: 'string' }],
            nodes: [
              input(),
              { id: 'agent', type: 'agent', config: { prompt: 'About {{inputs.topic}}', tools: [] } },
              output('{{nodes.agent.output}}'),
            ],
            edges: ['input>agent', 'agent>result'],
          }),
          tool: { name: 'say' },
        },
      ]);
    });
    const result = await runCli(['--db', db, 'run', 'say', '--input', 'topic=otters', '--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as RunRecord).status).toBe('succeeded');
    expect(result.stderr).toMatch(/flowbench: claude \(claude-test\): maxOutputTokens is used in a compatibility mode/);
    // The stored run says it under the agent's step, where a person looks later.
    const shown = await runCli(['--db', db, 'runs', 'show', (JSON.parse(result.stdout) as RunRecord).id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/succeeded +agent .*\n +warning: maxOutputTokens is used in a compatibility mode/);

    const { client, stderr } = await connectStdio(db);
    const unreadable: Error[] = [];
    client.onerror = (error) => unreadable.push(error);
    try {
      const answer = await client.callTool({ name: 'say', arguments: { topic: 'otters' } });
      expect(answer.content).toEqual([{ type: 'text', text: 'Otters.' }]);
      expect(unreadable).toEqual([]);
      expect(stderr()).toMatch(/flowbench: claude \(claude-test\): maxOutputTokens/);
    } finally {
      await client.close();
    }
  });
});
