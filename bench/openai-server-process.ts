import { startOpenAiServer } from '../tests/helpers/openai-server';

/**
 * The test provider as its own process, as a real provider would be, so its
 * work does not share the engine's event loop. Prints its URL, then serves
 * until stdin closes. Usage: openai-server-process.ts <delayMs>
 */
const delayMs = Number(process.argv[2] ?? 0);
const server = await startOpenAiServer(() => ({ content: 'ok', delayMs }));
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
