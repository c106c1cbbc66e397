import { describe, expect, it } from 'vitest';
import { stderrHint } from './stderr-hint';

describe('stderrHint: what a server that failed said, in a line', () => {
  it("gives a Node crash's error line, not the end of its stack", () => {
    const stderr = [
      'file:///srv/server.mjs:9',
      "server.registerTool('x', {}, async () => ({}) as never);",
      '                                          ^',
      '',
      'SyntaxError: missing ) after argument list',
      '    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)',
      '    at async ModuleJob._link (node:internal/modules/esm/module_job:148:19)',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    expect(stderrHint(stderr)).toBe(' (its stderr: SyntaxError: missing ) after argument list)');
  });

  it("gives a missing module's line, past the details Node prints after the stack", () => {
    const stderr = [
      "Error: Cannot find module '/srv/missing.js'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)',
      '    at node:internal/main/run_main_module:28:49 {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      'Node.js v20.20.2',
    ].join('\n');
    expect(stderrHint(stderr)).toBe(" (its stderr: Error: Cannot find module '/srv/missing.js')");
  });

  it("gives a Python traceback's last line", () => {
    const stderr = [
      'Traceback (most recent call last):',
      '  File "/srv/server.py", line 1, in <module>',
      '    from mcp.server.fastmcp import FastMCP',
      "ModuleNotFoundError: No module named 'mcp'",
    ].join('\n');
    expect(stderrHint(stderr)).toBe(" (its stderr: ModuleNotFoundError: No module named 'mcp')");
  });

  it('gives the last three lines when none reads as an error, and nothing for an empty stderr', () => {
    expect(stderrHint('starting\nreading /etc/app.conf\ncannot open config file\n')).toBe(
      ' (its stderr: starting | reading /etc/app.conf | cannot open config file)',
    );
    expect(stderrHint('\n  \n')).toBe('');
  });
});
