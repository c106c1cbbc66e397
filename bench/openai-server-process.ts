import { startOpenAiServer, toolMessages } from '../tests/helpers/openai-server';

/**
 * The test provider as its own process, as a real provider would be, so its
 * work does not share the engine's event loop. Prints its URL, then serves
 * until stdin closes. Usage: openai-server-process.ts <delayMs> [toolTurns]
 * With toolTurns, it plays an agent's model: it asks for one `echo` call per
 * turn until the conversation holds that many tool results, then answers.
 */
const delayMs = Number(process.argv[2] ?? 0);
const toolTurns = Number(process.argv[3] ?? 0);
const server = await startOpenAiServer((request) =>
  toolMessages(request).length < toolTurns
    ? { toolCalls: [{ name: 'echo', arguments: { message: 'bench' } }], delayMs }
    : { content: 'ok', delayMs },
);
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
