import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

    const serve = await startServe(db);
    try {
      const running = await runCli(['--db', db, 'mcp-config', '--client', 'generic']);
      expect(running.stdout).toContain(`port ${serve.port}: \`flowbench serve\` is running there`);
      const json = JSON.parse((await runCli(['--db', db, 'mcp-config', '--json'])).stdout) as {
        http: { url: string; headers: { Authorization: string } };
      };
      expect(json.http).toEqual({ url: serve.mcpUrl, headers: { Authorization: `Bearer ${serve.token}` } });
    } finally {
      await serve.stop();
    }
  });
});
