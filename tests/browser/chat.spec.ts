import { buildFlow, input, llm, output, template } from '../helpers/flow-builder';
import { llmFlow, releaseFlow } from '../helpers/flows';
import { everythingStdio } from '../helpers/mcp-servers';
import { expect, expectSaved, openFlow, storedFlow, test, withDatabase } from './fixtures';
import { TINY_PNG_BASE64, tinyPng } from '../helpers/images';
import { holdWriteLock } from '../helpers/write-lock';

/** input (message, tone) → reply (an LLM that remembers its answers in "chat") → result. */
const chatFlow = {
  ...buildFlow({
    id: 'chatty',
    parameters: [
      { name: 'tone', type: 'string', required: false },
      { name: 'message', type: 'string' },
    ],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      {
        ...llm('reply', '{{inputs.message}} ({{inputs.tone}})', {
          memoryReads: [{ channel: 'chat', limit: 10 }],
          memoryWrites: [{ channel: 'chat', mode: 'AGENT_OUTPUT' }],
        }),
        position: { x: 300, y: 100 },
      },
      { ...output('{{nodes.reply.output}}'), position: { x: 600, y: 100 } },
    ],
    edges: ['input>reply', 'reply>result'],
  }),
  name: 'Chatty',
};

/** What the model was last asked: the user message's text (a string, or parts with text). */
const lastUserText = (messages: { role: string; content: unknown }[] | undefined): string => {
  const content = messages?.filter((m) => m.role === 'user').at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
};

test('Chat, as Langflow’s Playground: each message runs the flow with it as its text parameter, the answers join the conversation, memory carries earlier ones', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel((request) => {
    const messages = request.body.messages ?? [];
    return {
      content: `Reply to "${lastUserText(messages)}" after ${messages.length - 1} earlier`,
      chunks: ['Reply ', 'streaming'],
      chunkDelayMs: 0,
    };
  });
  await openFlow(page, served, chatFlow);
  await page.getByRole('tab', { name: 'Run' }).click();
  await page.locator('#run-input-tone').fill('brief');
  await page.getByRole('tab', { name: 'Chat' }).click();
  const chat = page.locator('.chat-panel');
  // The required text parameter takes the message; the form's other inputs go as they are.
  await expect(chat).toContainText("Each message runs the flow with it as message (the Run form's tone as they are)");
  await expect(chat).toContainText('It remembers through its memory (chat)');

  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hello there');
  await box.press('Enter');
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log.locator('.chat-sent')).toHaveText(['Hello there']);
  await expect(log.getByLabel('Answer', { exact: true })).toHaveCount(1);
  await expect(log.getByLabel('Answer', { exact: true })).toContainText('Reply streaming');
  await expect(log.getByLabel('Answer', { exact: true })).toContainText('tokens');
  expect(lastUserText(model.requests[0]?.body.messages)).toBe('Hello there (brief)');
  await expect(box).toHaveValue('');
  // Still the Chat tab: sending does not switch to the Run tab.
  await expect(page.getByRole('tab', { name: 'Chat' })).toHaveAttribute('aria-selected', 'true');

  // Shift+Enter writes a new line; the second message reaches the model after the first answer (memory).
  await box.fill('And');
  await box.press('Shift+Enter');
  await page.keyboard.type('again');
  await expect(box).toHaveValue('And\nagain');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(log.locator('.chat-sent')).toHaveText(['Hello there', 'And\nagain']);
  await expect(log.getByLabel('Answer', { exact: true })).toHaveCount(2);
  const second = model.requests[1]?.body.messages ?? [];
  expect(JSON.stringify(second)).toContain('Reply streaming');

  // An answer worth keeping becomes a test case with its run's inputs (the Tests tab adds what it should hold).
  await log.getByRole('button', { name: 'Save as a test case' }).first().click();
  await expect(page.locator('.toast')).toContainText("Saved as test case “Hello there” with this run's inputs");
  await expectSaved(page);
  expect(storedFlow(served.db, 'chatty').tests).toEqual([
    { id: 'case_1', name: '“Hello there”', inputs: { tone: 'brief', message: 'Hello there' }, expectations: [] },
  ]);

  // Each turn is a stored run: Its run opens it in the Run tab, listed with the others.
  await log.getByRole('button', { name: 'Its run' }).first().click();
  await expect(page.getByRole('tab', { name: 'Run' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.run-origin').first()).toContainText('A stored run from editor');
  await expect(page.getByRole('region', { name: 'Recent runs' }).getByRole('listitem')).toHaveCount(2);

  // Back in Chat the conversation is there, after a reload too; New chat starts another.
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(log.locator('.chat-sent')).toHaveCount(2);
  await page.reload();
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(log.locator('.chat-sent')).toHaveText(['Hello there', 'And\nagain']);
  await expect(log.getByLabel('Answer', { exact: true })).toHaveCount(2);
  // Up in the empty box brings back the last message; Send again sends a turn's message once more.
  await box.press('ArrowUp');
  await expect(box).toHaveValue('And\nagain');
  await box.fill('');
  await log.getByRole('button', { name: 'Send again' }).first().click();
  await expect(log.locator('.chat-sent')).toHaveText(['Hello there', 'And\nagain', 'Hello there']);
  await expect(log.getByLabel('Answer', { exact: true })).toHaveCount(3);
  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(log.locator('.chat-sent')).toHaveCount(0);
});

test('Per-conversation memory: Keep it per conversation, and New chat starts with none of what the last chat said', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel((request) => ({ content: `Answer to ${lastUserText(request.body.messages)}` }));
  await openFlow(page, served, chatFlow);
  await page.getByRole('tab', { name: 'Chat' }).click();
  const chat = page.locator('.chat-panel');
  await expect(chat).toContainText('which every run shares and outlives this chat');
  await chat.getByRole('button', { name: 'Keep it per conversation' }).click();
  await expect(chat).toContainText(
    'It remembers this chat through its memory (chat): New chat starts with none of it.',
  );
  await expectSaved(page);
  expect(storedFlow(served.db, 'chatty').memory.channels).toEqual([{ id: 'chat', perConversation: true }]);

  const box = page.getByRole('textbox', { name: 'Message' });
  const log = page.getByRole('log', { name: 'Conversation' });
  const send = async (text: string, turns: number) => {
    await box.fill(text);
    await box.press('Enter');
    await expect(log.getByLabel('Answer', { exact: true })).toHaveCount(turns);
  };
  /** The memory messages the model was sent for the request at `index`. */
  const remembered = (index: number) =>
    (model.requests[index]?.body.messages ?? []).map((m) => String(m.content)).filter((c) => c.startsWith('Memory'));
  await send('First', 1);
  await send('Second', 2);
  expect(remembered(1)).toEqual(['Memory "chat", the last 1 entry, oldest first:\n- Answer to First ()']);
  await page.getByRole('button', { name: 'New chat' }).click();
  await send('Fresh', 1);
  expect(remembered(2)).toEqual([]);
  // Its run says which conversation it went on.
  await log.getByRole('button', { name: 'Its run' }).click();
  await expect(page.getByTestId('run-conversation')).toContainText('In conversation chat-');
  // Both chats' runs are stored with their conversation, and the Memory section shows whose each entry is.
  const runs = withDatabase(served.db, (services) => services.runs.list({ flowId: 'chatty', limit: 10 }));
  const [fresh, second, first] = runs.map((r) => r.conversation ?? '');
  expect(first).toMatch(/^chat-[0-9a-f-]{36}$/);
  expect(second).toBe(first);
  expect(fresh).toMatch(/^chat-[0-9a-f-]{36}$/);
  expect(fresh).not.toBe(first);
  await page.locator('.react-flow__pane').click({ position: { x: 450, y: 60 } });
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const memory = page.getByLabel('Memory', { exact: true });
  await expect(memory.locator('summary')).toContainText('3 entries · per conversation');
  await memory.locator('summary').click();
  await expect(memory.getByRole('checkbox', { name: /Per conversation/ })).toBeChecked();
  const newest = memory.getByLabel('Entries of chat').locator('.memory-conversation').last();
  await expect(newest).toHaveText(` · ${fresh!.slice(0, 13)}…`);
  await expect(newest).toHaveAttribute('title', fresh!);

  // Re-running a chat turn's run goes on in its conversation: the model is sent what that chat remembers.
  await page.getByRole('tab', { name: 'Chat' }).click();
  await log.getByRole('button', { name: 'Its run' }).click();
  await page.getByRole('button', { name: 'Re-run with them' }).click();
  await expect.poll(() => model.requests.length).toBe(4);
  expect(remembered(3)).toEqual(['Memory "chat", the last 1 entry, oldest first:\n- Answer to Fresh ()']);
  await expect(page.locator('.run-status')).toHaveText(/succeeded/i);
  await expect(page.getByTestId('run-conversation')).toContainText(`In conversation ${fresh!.slice(0, 13)}`);

  // Forget this chat: what its runs wrote goes from the database; the first chat's entries stay.
  await page.getByRole('tab', { name: 'Chat' }).click();
  await chat.getByRole('button', { name: 'Forget this chat' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Forgot 2 memory entries of this chat' })).toBeVisible();
  const left = withDatabase(served.db, (services) => services.memory.show('chatty', { limit: 20 }));
  expect(left.channels[0]?.recent.map((e) => e.conversation)).toEqual([first, first]);
});

test('Chat says why a message did not run, and what a flow without a text parameter needs', async ({
  page,
  served,
  localModel,
}) => {
  await localModel(() => ({ content: 'never' }));
  const needsMore = {
    ...chatFlow,
    parameters: [...(chatFlow.parameters ?? []), { name: 'count', type: 'number' as const }],
  };
  await openFlow(page, served, needsMore);
  await page.getByRole('tab', { name: 'Chat' }).click();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('Hi');
  await box.press('Enter');
  const failed = page.getByRole('log', { name: 'Conversation' }).getByLabel('Answer: not started');
  await expect(failed).toContainText("The Run form's other inputs first: count:");

  const noText = {
    ...buildFlow({
      id: 'numbers',
      parameters: [{ name: 'n', type: 'number' }],
      nodes: [input(), template('double', '{{inputs.n}}'), output('{{nodes.double.output}}')],
      edges: ['input>double', 'double>result'],
    }),
    name: 'Numbers',
  };
  await openFlow(page, served, noText);
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(page.locator('.chat-panel')).toContainText('this flow has none: add a parameter of type string');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveCount(0);
});

test('a chat answer says what it took and which tools were called for it, as chat playgrounds show under an answer', async ({
  page,
  served,
}) => {
  withDatabase(served.db, (services) => services.servers.set(everythingStdio()));
  await openFlow(page, served, {
    ...buildFlow({
      id: 'echoes',
      parameters: [{ name: 'message', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        {
          id: 'echo',
          type: 'mcp_tool',
          config: { server: 'everything', tool: 'echo', arguments: [{ name: 'message', value: '{{inputs.message}}' }] },
          position: { x: 300, y: 100 },
        },
        { ...output('{{nodes.echo.output}}'), position: { x: 600, y: 100 } },
      ],
      edges: ['input>echo', 'echo>result'],
    }),
    name: 'Echoes',
  });
  await page.getByRole('tab', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('ping');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const answer = page.getByRole('log', { name: 'Conversation' }).getByLabel('Answer', { exact: true });
  await expect(answer).toContainText('Echo: ping', { timeout: 20_000 });
  await expect(answer).toContainText('Called everything/echo');
  await expect(answer.locator('.chat-facts').last()).toHaveText(/^\d+\.\d\d s$/);
});

test('a chat answer whose events come late, while its run waits to be written (the database locked), is not taken for a run deleted', async ({
  page,
  served,
  localModel,
}) => {
  // Longer than the second a read waits for run records: the answer can only come from the run's events.
  await localModel(() => ({ content: 'Pong back', chunks: ['Pong ', 'back'], chunkDelayMs: 800 }));
  // The host's events reach the page late, once asked (a slow connection): the start call's answer comes first.
  await page.addInitScript(() => {
    const Native = window.EventSource;
    const slow = window as unknown as { eventDelayMs?: number };
    window.EventSource = class extends Native {
      override set onmessage(handler: ((message: MessageEvent) => void) | null) {
        super.onmessage =
          handler && ((message) => setTimeout(() => handler.call(this, message), slow.eventDelayMs ?? 0));
      }
      override get onmessage() {
        return super.onmessage;
      }
    };
  });
  // No memory: a memory write would wait for the lock too.
  await openFlow(
    page,
    served,
    llmFlow(
      { id: 'pong', name: 'Pong', parameter: { name: 'message', type: 'string' } },
      { id: 'reply', prompt: '{{inputs.message}}' },
    ),
  );
  await page.getByRole('tab', { name: 'Chat' }).click();
  const releaseLock = holdWriteLock(served.db);
  try {
    await page.evaluate(() => ((window as unknown as { eventDelayMs?: number }).eventDelayMs = 1_500));
    await page.getByRole('textbox', { name: 'Message' }).fill('ping');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const answer = page.getByRole('log', { name: 'Conversation' }).getByLabel('Answer', { exact: true });
    await expect(answer).toContainText('Pong back');
    await expect(page.getByRole('log', { name: 'Conversation' })).not.toContainText('deleted');
  } finally {
    releaseLock();
  }
  // Stored once the database takes writes again.
  await expect
    .poll(() => withDatabase(served.db, (services) => services.runs.list({ flowId: 'pong', limit: 5 }).length))
    .toBe(1);
});

test('a flow that asks the person (an ask node) asks in the Chat tab too, and the answer goes on', async ({
  page,
  served,
}) => {
  await openFlow(page, served, releaseFlow());
  await page.getByRole('tab', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('2.1');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const form = page.getByRole('form', { name: 'Question from Confirm' });
  await expect(form).toContainText('Confirm asks: Ship 2.1?');
  await form.getByLabel('Ship it').check();
  await form.getByLabel('channel').selectOption('beta');
  await form.getByRole('button', { name: 'Answer' }).click();
  await expect(page.getByRole('log', { name: 'Conversation' }).getByLabel('Answer', { exact: true })).toHaveText(
    /ship=true channel=beta/,
  );
  await expect(form).toHaveCount(0);
});

test('a flow that returns an image shows the picture in its chat answer, beside its text', async ({ page, served }) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'pictures',
      parameters: [{ name: 'message', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { ...template('picture', `data:image/png;base64,${TINY_PNG_BASE64}`), position: { x: 300, y: 100 } },
        { ...output('{{nodes.picture.output}}', 'You asked for {{inputs.message}}'), position: { x: 600, y: 100 } },
      ],
      edges: ['input>picture', 'picture>result'],
    }),
    name: 'Pictures',
  });
  await page.getByRole('tab', { name: 'Chat' }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('a dot');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const answer = page.getByRole('log', { name: 'Conversation' }).getByLabel('Answer', { exact: true });
  await expect(answer).toContainText('You asked for a dot', { timeout: 20_000 });
  await expect(answer).not.toContainText('base64');
  const image = answer.getByRole('img', { name: 'image 1 of the answer (image/png)' });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
});

test('a chat message and an answer of a hundred thousand characters show their start and a Show all button, not the whole text at once', async ({
  page,
  served,
}) => {
  await openFlow(page, served, {
    ...buildFlow({
      id: 'echoes',
      parameters: [{ name: 'message', type: 'string' }],
      nodes: [
        { ...input(), position: { x: 0, y: 100 } },
        { ...output('Echo: {{inputs.message}}'), position: { x: 300, y: 100 } },
      ],
      edges: ['input>result'],
    }),
    name: 'Echoes',
  });
  await page.getByRole('tab', { name: 'Chat' }).click();
  const long = 'otters '.repeat(100_000 / 7);
  await page.getByRole('textbox', { name: 'Message' }).fill(long);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const log = page.getByRole('log', { name: 'Conversation' });
  const answer = log.getByLabel('Answer', { exact: true });
  await expect(answer).toContainText('Echo: otters', { timeout: 20_000 });
  const answerText = answer.locator('.chat-text');
  expect((await answerText.textContent())?.length).toBe(20_001);
  await expect(log.locator('.chat-sent')).toContainText('Show all 99,995 characters');
  await answer.getByRole('button', { name: `Show all ${(long.length + 6).toLocaleString('en')} characters` }).click();
  await expect.poll(() => answerText.textContent()).toBe(`Echo: ${long}`);
});

test('a picture attached to a chat message is sent with it and shows in the conversation; a vision model gets it as an image', async ({
  page,
  served,
  localModel,
}) => {
  const model = await localModel(() => ({ content: 'A single dark pixel.' }));
  await openFlow(page, served, chatFlow);
  await page.getByRole('tab', { name: 'Chat' }).click();
  const png = tinyPng();
  await page
    .getByLabel('Attach an image to the message')
    .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('img', { name: 'the image to send' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('What is this?');
  await page.getByRole('button', { name: 'Send' }).click();
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByLabel('Answer', { exact: true })).toContainText('A single dark pixel.', {
    timeout: 20_000,
  });
  await expect(conversation.getByRole('img', { name: 'an image sent (image/png)' })).toBeVisible();
  await expect(conversation).not.toContainText('base64');
  await expect(page.getByRole('img', { name: 'the image to send' })).toHaveCount(0);
  expect(model.requests[0]?.body.messages?.at(-1)?.content).toEqual([
    { type: 'text', text: 'What is this?\n\n[image 1] ()' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
  ]);
});
