import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The entry script of a third-party MCP server package installed as a dev dependency. */
function packageScript(name: string, file: string): string {
  return join(dirname(require.resolve(`${name}/package.json`)), file);
}

/** `@modelcontextprotocol/server-everything` over stdio, as a server setting. */
export const everythingStdio = (name = 'everything') => ({
  name,
  transport: 'stdio' as const,
  command: process.execPath,
  args: [packageScript('@modelcontextprotocol/server-everything', 'dist/index.js'), 'stdio'],
});

/** `@modelcontextprotocol/server-filesystem` over stdio, allowed into `folder`. */
export const filesystemStdio = (folder: string, name = 'files') => ({
  name,
  transport: 'stdio' as const,
  command: process.execPath,
  args: [packageScript('@modelcontextprotocol/server-filesystem', 'dist/index.js'), folder],
});

/** One of the test suite's own MCP servers (tests/fixtures/mcp/<file>) over stdio, as a server setting. */
export const fixtureStdio = (name: string, file: string) => ({
  name,
  transport: 'stdio' as const,
  command: process.execPath,
  args: [join(import.meta.dirname, '..', 'fixtures', 'mcp', file)],
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * server-everything over HTTP on a free port (or `port`, to start it again where it was): its Streamable HTTP transport
 * (at /mcp), or its older HTTP+SSE one (`sse`: the stream at /sse). Stop it with `close`.
 */
export async function startEverythingHttp(
  transport: 'streamableHttp' | 'sse' = 'streamableHttp',
  port?: number,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  port ??= await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [packageScript('@modelcontextprotocol/server-everything', 'dist/index.js'), transport],
    { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen: ${seen}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      // Each transport says it differently: `listening on …`, `Server is running on port …`.
      if (/listening|running on port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server-everything exited ${code}: ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // Ended already (a second close): a process killed by a signal has no exit code, only a signal.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
