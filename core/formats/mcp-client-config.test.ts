import { describe, expect, it } from 'vitest';
import { serversFromClientConfig } from './mcp-client-config';

const read = (config: unknown) => serversFromClientConfig(JSON.stringify(config), 'the config');

describe('serversFromClientConfig', () => {
  it("reads each client's layout: mcpServers, VS Code's servers and settings, and a map of servers alone", () => {
    const files = {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/notes'],
      env: { A: '1' },
    };
    const remote = { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer t' } };
    const expected = [
      {
        config: {
          name: 'files',
          transport: 'stdio',
          command: 'npx',
          args: files.args,
          env: { A: '1' },
          connectTimeoutMs: 20_000,
          toolTimeoutMs: 60_000,
        },
        where: 'mcpServers.files',
      },
      {
        config: {
          name: 'remote',
          transport: 'http',
          url: remote.url,
          headers: remote.headers,
          connectTimeoutMs: 20_000,
          toolTimeoutMs: 60_000,
        },
        where: 'mcpServers.remote',
      },
    ];
    expect(read({ mcpServers: { files, remote } })).toEqual({ servers: expected, problems: [] });
    const vscode = read({ servers: { files: { type: 'stdio', ...files }, remote: { type: 'http', ...remote } } });
    expect(vscode.servers.map((s) => [s.where, s.config.transport])).toEqual([
      ['servers.files', 'stdio'],
      ['servers.remote', 'http'],
    ]);
    expect(read({ mcp: { servers: { files } } }).servers[0]?.where).toBe('mcp.servers.files');
    expect(read({ files }).servers[0]?.where).toBe('files');
  });

  it("reads Claude Code's servers of each project too, and takes a name met twice once, saying where the other is", () => {
    const found = read({
      mcpServers: { files: { command: 'npx' } },
      projects: {
        '/home/me/app': { mcpServers: { github: { command: 'gh-mcp' } } },
        '/home/me/site': { mcpServers: { files: { command: 'other' } }, allowedTools: [] },
        '/home/me/empty': { mcpServers: {} },
      },
    });
    expect(found.servers.map((s) => [s.where, s.config.transport === 'stdio' && s.config.command])).toEqual([
      ['mcpServers.files', 'npx'],
      ['projects["/home/me/app"].mcpServers.github', 'gh-mcp'],
    ]);
    expect(found.problems).toEqual([
      {
        where: 'projects["/home/me/site"].mcpServers.files',
        severity: 'error',
        message: 'a server named "files" is also at mcpServers.files, which is taken',
      },
    ]);
  });

  it('takes comments and trailing commas, as VS Code writes them, and says where the JSON breaks', () => {
    const text = '{\n  // mine\n  "servers": { "files": { "command": "npx", }, },\n}';
    expect(serversFromClientConfig(text, 'mcp.json').servers[0]?.config.name).toBe('files');
    expect(() => serversFromClientConfig('{ "mcpServers": ', 'mcp.json')).toThrow(
      expect.objectContaining({
        code: 'INVALID_JSON',
        message: expect.stringContaining('mcp.json is not valid JSON at line 1'),
      }),
    );
    expect(() => read({ theme: 'dark' })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining('the config has no MCP servers'),
      }),
    );
  });

  it('leaves out, with an error where it is, an entry Flowbench cannot take as it is; takes an SSE one as a server at its URL', () => {
    const found = read({
      mcpServers: {
        old: { type: 'sse', url: 'https://example.com/sse' },
        prompted: { command: 'node', args: ['s.js'], env: { KEY: '${input:api-key}' } },
        'my server': { command: 'x' },
        odd: { type: 'websocket', url: 'wss://example.com' },
        nothing: { args: ['x'] },
        nowhere: { type: 'http' },
        ok: { command: 'node' },
      },
    });
    // An SSE server is taken as a server at its URL: Flowbench falls back to SSE there when it is refused Streamable HTTP.
    expect(found.servers.map((s) => s.config)).toEqual([
      expect.objectContaining({ name: 'old', transport: 'http', url: 'https://example.com/sse' }),
      expect.objectContaining({ name: 'ok', transport: 'stdio' }),
    ]);
    expect(found.problems).toEqual([
      {
        where: 'mcpServers.prompted.env.KEY',
        severity: 'error',
        message:
          'uses the variable ${input:api-key}, which Flowbench cannot fill in; add the server by hand with its value',
      },
      { where: 'mcpServers.my server', severity: 'error', message: 'a server name is 1–64 letters, digits, _ . or -' },
      {
        where: 'mcpServers.odd',
        severity: 'error',
        message: 'has the transport "websocket", which Flowbench does not know',
      },
      {
        where: 'mcpServers.nothing',
        severity: 'error',
        message: 'has neither a command (stdio) nor a url (Streamable HTTP)',
      },
      { where: 'mcpServers.nowhere.url', severity: 'error', message: 'an http:// or https:// URL' },
    ]);
  });

  it("takes a server without the settings Flowbench has no use for, naming each, and leaves Flowbench's own entries out", () => {
    const found = read({
      mcpServers: {
        files: { command: 'npx', autoApprove: ['read'], disabled: false },
        flowbench: { command: 'node', args: ['/home/me/flowbench/bin/flowbench', 'mcp'] },
        mine: { command: '/usr/bin/node', args: ['/opt/flowbench/bin/flowbench', 'mcp', '--db', 'x.db'] },
      },
    });
    expect(found.servers.map((s) => s.config.name)).toEqual(['files']);
    expect(found.problems).toEqual([
      { where: 'mcpServers.files.autoApprove', severity: 'warning', message: 'not a setting Flowbench has; left out' },
      { where: 'mcpServers.files.disabled', severity: 'warning', message: 'not a setting Flowbench has; left out' },
      {
        where: 'mcpServers.flowbench',
        severity: 'warning',
        message: 'is Flowbench itself: its published flows are already the "flowbench" tools',
      },
      {
        where: 'mcpServers.mine',
        severity: 'warning',
        message: 'is Flowbench itself: its published flows are already the "flowbench" tools',
      },
    ]);
  });
});
