import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowInput } from '../../core/model/flow';
import type { RunRecord } from '../../core/model/run';
import { runCli, runJson, setTestProvider } from '../helpers/cli';
import { buildFlow, input, llm, output } from '../helpers/flow-builder';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { useTempDir } from '../helpers/temp';

/**
 * A per-conversation memory channel (Langflow's session id, n8n's session
 * key): runs given the same conversation remember each other, other
 * conversations and runs given none do not.
 */
const tempDir = useTempDir();
let model: OpenAiServer;
let db: string;

beforeEach(async () => {
  model = await startOpenAiServer((request) => ({
    content: `you said ${String(request.body.messages?.at(-1)?.content)}`,
  }));
  db = join(tempDir(), 'conversation.db');
  await setTestProvider(db, model.url, 'test-model', '--default');
});
afterEach(() => model.close());

/** message → reply (reads and writes channel "chat") → result. */
const chatFlow = (id: string, perConversation: boolean): FlowInput => ({
  ...buildFlow({
    id,
    parameters: [{ name: 'message', type: 'string' }],
    nodes: [
      input(),
      llm('reply', '{{inputs.message}}', {
        memoryReads: [{ channel: 'chat', limit: 10 }],
        memoryWrites: [{ channel: 'chat', mode: 'AGENT_OUTPUT' }],
      }),
      output('{{nodes.reply.output}}'),
    ],
    edges: ['input>reply', 'reply>result'],
  }),
  memory: { channels: perConversation ? [{ id: 'chat', perConversation: true }] : [] },
});

async function importFlow(flow: FlowInput): Promise<void> {
  const file = join(tempDir(), `${flow.id}.json`);
  writeFileSync(file, JSON.stringify(flow));
  expect((await runCli(['--db', db, 'import', file])).code).toBe(0);
}

const say = (flow: string, message: string, ...more: string[]) =>
  runJson<RunRecord>(['--db', db, 'run', flow, '--input', `message=${message}`, ...more]);
/** What the model was sent as memory in its last request (empty when nothing). */
const rememberedLast = () =>
  (model.requests.at(-1)?.body.messages ?? [])
    .map((m) => String(m.content))
    .filter((c) => c.startsWith('Memory "chat"'));

describe('per-conversation memory', () => {
  it('remembers within a conversation only; a run given none remembers nothing; runs show and memory say it', async () => {
    await importFlow(chatFlow('talk', true));
    expect((await say('talk', 'hello', '--conversation', 'alice')).conversation).toBe('alice');
    expect(rememberedLast()).toEqual([]);
    await say('talk', 'again', '--conversation', 'alice');
    expect(rememberedLast()).toEqual(['Memory "chat", the last 1 entry, oldest first:\n- you said hello']);
    await say('talk', 'hi', '--conversation', 'bob');
    expect(rememberedLast()).toEqual([]);
    const lone = await say('talk', 'nobody');
    expect(lone.conversation).toBeUndefined();
    expect(rememberedLast()).toEqual([]);
    await say('talk', 'third', '--conversation', 'alice');
    expect(rememberedLast()).toEqual([
      'Memory "chat", the last 2 entries, oldest first:\n- you said hello\n- you said again',
    ]);

    const shown = await runCli(['--db', db, 'runs', 'show', lone.id]);
    expect(shown.stdout).not.toContain('conversation');
    const listed = await runJson<{ runs: { id: string; conversation?: string }[] }>(['--db', db, 'runs']);
    expect(listed.runs[0]).toMatchObject({ conversation: 'alice' });
    expect((await runCli(['--db', db, 'runs', 'show', listed.runs[0]!.id])).stdout).toContain('conversation alice');
    const memory = await runCli(['--db', db, 'memory', 'talk']);
    expect(memory.stdout).toContain('chat  5 entries  per conversation');
    expect(memory.stdout).toContain('reply  (bob)  you said hi');

    const cleared = await runJson<{ removed: number }>([
      '--db',
      db,
      'memory',
      'talk',
      '--clear',
      '--conversation',
      'alice',
    ]);
    expect(cleared.removed).toBe(3);
    await say('talk', 'fresh', '--conversation', 'alice');
    expect(rememberedLast()).toEqual([]);
  });

  it("a run from a node of a conversation's run goes on in that conversation", async () => {
    await importFlow(chatFlow('again', true));
    const first = await say('again', 'hello', '--conversation', 'alice');
    await say('again', 'hi', '--conversation', 'bob');
    const rerun = await runJson<RunRecord>(['--db', db, 'run', 'again', '--from', 'reply', '--reuse', first.id]);
    expect(rerun.conversation).toBe('alice');
    // What alice's conversation holds (her first turn), not bob's, and not nothing.
    expect(rememberedLast()).toEqual(['Memory "chat", the last 1 entry, oldest first:\n- you said hello']);
  });

  it('a channel not per conversation is shared by every run, as before', async () => {
    await importFlow(chatFlow('shared', false));
    await say('shared', 'one', '--conversation', 'alice');
    await say('shared', 'two', '--conversation', 'bob');
    expect(rememberedLast()).toEqual(['Memory "chat", the last 1 entry, oldest first:\n- you said one']);
  });

  it("a called flow's run goes on in its caller's conversation", async () => {
    await importFlow(chatFlow('inner', true));
    expect((await runCli(['--db', db, 'publish', 'inner'])).code).toBe(0);
    await importFlow(
      buildFlow({
        id: 'outer',
        parameters: [{ name: 'message', type: 'string' }],
        nodes: [
          input(),
          {
            id: 'call',
            type: 'flow',
            config: { flow: 'inner', inputs: [{ name: 'message', value: '{{inputs.message}}' }] },
          },
          output('{{nodes.call.output}}'),
        ],
        edges: ['input>call', 'call>result'],
      }),
    );
    await say('outer', 'first', '--conversation', 'carol');
    const second = await say('outer', 'second', '--conversation', 'carol');
    expect(second.status).toBe('succeeded');
    expect(rememberedLast()).toEqual(['Memory "chat", the last 1 entry, oldest first:\n- you said first']);
    const child = await runJson<RunRecord>(['--db', db, 'runs', 'show', second.steps[1]!.childRunId!]);
    expect(child.conversation).toBe('carol');
  });

  it('refuses a conversation name it cannot keep, and --conversation on memory without --clear', async () => {
    await importFlow(chatFlow('talk', true));
    const bad = await runCli(['--db', db, 'run', 'talk', '--input', 'message=x', '--conversation', 'two words']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--conversation: a conversation is 1–128 letters, digits, _ . or -, got "two words"');
    expect(model.requests).toHaveLength(0);
    const alone = await runCli(['--db', db, 'memory', 'talk', '--conversation', 'alice']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--conversation goes with --clear');
  });
});
