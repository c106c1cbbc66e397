import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { echoFlow } from '../fixtures/mcp-flows';
import { connectHttp, prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe, type ServeProcess } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
let serve: ServeProcess | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await serve?.kill();
});

/** Opens `count` connections to `port`, each asking for the MCP endpoint's stream and then held open. */
function flood(port: number, count: number): void {
  for (let i = 0; i < count; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    sockets.push(socket);
  }
}

// The limit of open files is read from /proc (Linux, as CI); elsewhere the cap is a fixed 1,024 connections.
describe.skipIf(!existsSync('/proc/self/limits'))('a client that opens connections without end', () => {
  it('cannot leave serve unable to open files: once they close, MCP answers again', async () => {
    const db = join(tempDir(), 'flood.db');
    prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
    serve = await startServe(db, [], { openFileLimit: 200 });
    // More connections than the process may have files open; the first /mcp requests load the MCP endpoint.
    flood(serve.port, 300);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const socket of sockets.splice(0)) socket.destroy();

    // The endpoint's module failed to load for good (EMFILE) and every MCP request got 500 until restarted.
    let client: Awaited<ReturnType<typeof connectHttp>> | undefined;
    const deadline = Date.now() + 10_000;
    while (!client) {
      client = await connectHttp(serve.mcpUrl, serve.token).catch((error: unknown) => {
        if (Date.now() > deadline) throw error;
        return undefined;
      });
      if (!client) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const result = await client.callTool({ name: 'echo_tool', arguments: { message: 'still here' } });
    expect(result.content).toEqual([
      expect.objectContaining({ type: 'text', text: expect.stringContaining('still here') }),
      expect.anything(),
    ]);
    await client.close();
  });
});
