import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openServices } from '../../core/services/open-services';
import { runCli } from '../helpers/cli';
import { startServe } from '../helpers/serve';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();

describe('flowbench mcp-config (issue 17, point 7)', () => {
  it('prints the port `serve` runs on, and says when it prints the default', async () => {
    const db = join(tempDir(), 'config.db');
    const idle = await runCli(['--db', db, 'mcp-config', '--client', 'generic']);
    expect(idle.code).toBe(0);
    expect(idle.stdout).toContain("port 4747, `flowbench serve`'s default; none is running now");
    expect(idle.stdout).toContain('http://127.0.0.1:4747/mcp');
    // An empty port (an unset shell variable) was read as 0: serve took any free port, mcp-config wrote port 0.
    for (const command of ['serve', 'mcp-config']) {
      const refused = await runCli(['--db', db, command, '--port', '']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        'flowbench: error [USAGE_ERROR]: --port takes a whole number from 0 to 65,535, got ""\n',
      );
    }

    const serve = await startServe(db);
    try {
      const running = await runCli(['--db', db, 'mcp-config', '--client', 'generic']);
      expect(running.stdout).toContain(`port ${serve.port}: \`flowbench serve\` is running there`);
      const json = JSON.parse((await runCli(['--db', db, 'mcp-config', '--json'])).stdout) as {
        http: { url: string; headers: { Authorization: string } };
      };
      expect(json.http).toEqual({ url: serve.mcpUrl, headers: { Authorization: `Bearer ${serve.token}` } });
      // A second serve on its port says so and what to do (it was INTERNAL_ERROR, "please report it", with a
      // stack), and the port recorded is still the first one's.
      const second = await runCli(['--db', db, 'serve', '--port', String(serve.port)]);
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(
        `flowbench: error [PORT_UNAVAILABLE]: port ${serve.port} is in use (another \`flowbench serve\` or the app?): stop it, or pick another with --port (0 takes any free one)\n`,
      );
      expect((await runCli(['--db', db, 'mcp-config', '--client', 'generic'])).stdout).toContain(
        `port ${serve.port}: \`flowbench serve\` is running there`,
      );
    } finally {
      await serve.stop();
    }

    // A serve killed without cleaning up leaves its record behind: its dead process is not named.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const services = openServices(db);
    services.settings.set('serve.running', { port: 5151, pid: gone });
    services.close();
    const stale = await runCli(['--db', db, 'mcp-config', '--client', 'generic']);
    expect(stale.stdout).toContain("port 4747, `flowbench serve`'s default; none is running now");
  });

  it('--write adds Flowbench to a client config file beside its servers, with a backup; a broken file is refused', async () => {
    const db = join(tempDir(), 'write.db');
    const file = join(tempDir(), 'mcp.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
      }),
    );
    const written = await runCli(['--db', db, 'mcp-config', '--client', 'cursor', '--write', '--file', file]);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`wrote ${file}: added flowbench, flowbench-http; kept 1 other server`);
    const config = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { args?: string[] }> };
    expect(Object.keys(config.mcpServers)).toEqual(['memory', 'flowbench', 'flowbench-http']);
    expect(config.mcpServers.flowbench?.args?.slice(-3)).toEqual(['mcp', '--db', db]);

    writeFileSync(file, '{ "mcpServers": { , } }');
    const refused = await runCli(['--db', db, 'mcp-config', '--client', 'cursor', '--write', '--file', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('CLIENT_CONFIG_INVALID');
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { , } }');
    expect((await runCli(['--db', db, 'mcp-config', '--write'])).stderr).toContain('--write needs a client');

    // A folder given as the file, and a file that cannot be written (its folder would be under a file): each
    // said, where both were INTERNAL_ERROR ("please report it") with Node's stack.
    const write = (path: string) => runCli(['--db', db, 'mcp-config', '--client', 'cursor', '--write', '--file', path]);
    const folder = await write(tempDir());
    expect([folder.code, folder.stderr]).toEqual([
      1,
      `flowbench: error [FILE_NOT_FOUND]: ${tempDir()} is not a file\n`,
    ]);
    const underFile = await write(join(file, 'mcp.json'));
    expect(underFile.code).toBe(1);
    expect(underFile.stderr).toMatch(
      new RegExp(
        `^flowbench: error \\[CLIENT_CONFIG_INVALID\\]: ${join(file, 'mcp.json')} was left as it is: it cannot be written \\(.+\\)\\n$`,
      ),
    );
  });

  // Linux only: elsewhere there is no /proc.
  it.skipIf(process.platform !== 'linux')(
    "--write under /proc says it cannot write there instead of hanging (Node's recursive mkdir spins there)",
    async () => {
      const db = join(tempDir(), 'proc.db');
      const file = '/proc/flowbench-nowhere/mcp.json';
      const result = await runCli(['--db', db, 'mcp-config', '--client', 'cursor', '--write', '--file', file]);
      expect([result.code, result.stderr]).toEqual([
        1,
        `flowbench: error [CLIENT_CONFIG_INVALID]: ${file} was left as it is: it cannot be written (no such file)\n`,
      ]);
    },
  );
});
