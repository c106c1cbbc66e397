import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../tests/helpers/temp';
import {
  clientConfigPath,
  projectConfigPath,
  projectFolder,
  readClientConfig,
  writeClientConfig,
  type Endpoints,
} from './client-config';

const tempDir = useTempDir();
const reach: Endpoints = {
  stdio: { command: '/usr/bin/node', args: ['/opt/flowbench/bin/flowbench', 'mcp', '--db', '/data/flowbench.db'] },
  http: { url: 'http://127.0.0.1:4747/mcp', headers: { Authorization: 'Bearer t0ken' } },
};

/** Config files as the clients write them, with other servers and settings in them. */
const CLAUDE_DESKTOP = {
  mcpServers: {
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/me/Desktop'] },
    github: {
      command: 'docker',
      args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server'],
      env: { GITHUB_TOKEN: 'x' },
    },
  },
  globalShortcut: 'Ctrl+Space',
};
const VSCODE = {
  inputs: [{ type: 'promptString', id: 'api-key', description: 'API key', password: true }],
  servers: { fetch: { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] } },
};

const backups = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.bak'));

describe('writing an MCP client config (issue 18, point 5)', () => {
  it("adds Flowbench beside Claude Desktop's servers, keeps everything else, and backs the file up first", () => {
    const file = join(tempDir(), 'claude_desktop_config.json');
    const original = `${JSON.stringify(CLAUDE_DESKTOP, null, 2)}\n`;
    writeFileSync(file, original);
    const result = writeClientConfig('claude', file, reach, Date.UTC(2026, 10, 24));
    expect(result).toMatchObject({ added: ['flowbench'], updated: [], kept: ['filesystem', 'github'] });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      ...CLAUDE_DESKTOP,
      mcpServers: { ...CLAUDE_DESKTOP.mcpServers, flowbench: reach.stdio },
    });
    expect(readFileSync(result.backup as string, 'utf8')).toBe(original);
    // Written again: Flowbench's entry is updated, nothing else changes, and a second backup is made.
    const again = writeClientConfig(
      'claude',
      file,
      { ...reach, stdio: { ...reach.stdio, command: '/new/node' } },
      Date.UTC(2026, 10, 25),
    );
    expect(again).toMatchObject({ added: [], updated: ['flowbench'] });
    const rewritten = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, { command: string }> };
    expect(rewritten.mcpServers.flowbench?.command).toBe('/new/node');
    expect(backups(tempDir())).toHaveLength(2);
  });

  it('writes VS Code servers with their types, keeping its inputs', () => {
    const file = join(tempDir(), 'mcp.json');
    writeFileSync(file, JSON.stringify(VSCODE));
    writeClientConfig('vscode', file, reach);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      inputs: VSCODE.inputs,
      servers: {
        fetch: VSCODE.servers.fetch,
        flowbench: { type: 'stdio', ...reach.stdio },
        'flowbench-http': { type: 'http', ...reach.http },
      },
    });
  });

  it('creates a missing file (and its folder) without a backup', () => {
    const file = join(tempDir(), '.codeium', 'windsurf', 'mcp_config.json');
    const result = writeClientConfig('windsurf', file, reach);
    expect(result.backup).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: {
        flowbench: reach.stdio,
        'flowbench-http': { serverUrl: reach.http.url, headers: reach.http.headers },
      },
    });
  });

  it('refuses a file it cannot parse, or whose servers are not an object, and leaves it as it was', () => {
    const dir = join(tempDir(), 'refused');
    mkdirSync(dir);
    for (const [name, text] of [
      ['comments.json', '{\n  // my servers\n  "servers": {}\n}\n'],
      ['array.json', '[]'],
      ['servers.json', '{"mcpServers": ["not", "an", "object"]}'],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      expect(() => writeClientConfig('cursor', file, reach)).toThrow(
        expect.objectContaining({
          code: 'CLIENT_CONFIG_INVALID',
          message: expect.stringContaining('was left as it is'),
        }),
      );
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    expect(readdirSync(dir).sort()).toEqual(['array.json', 'comments.json', 'servers.json']);
  });

  it('knows where each client keeps its config', () => {
    expect(clientConfigPath('claude', 'darwin', '/Users/me')).toBe(
      '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(clientConfigPath('vscode', 'linux', '/home/me', {})).toBe('/home/me/.config/Code/User/mcp.json');
    expect(
      clientConfigPath('claude', 'win32', 'C:\\Users\\me', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }),
    ).toContain('claude_desktop_config.json');
    expect(clientConfigPath('cursor', 'linux', '/home/me')).toBe('/home/me/.cursor/mcp.json');
  });
});

describe('readClientConfig', () => {
  it('reads a client config as any imported file is: missing said with where, over the size limit refused unread', () => {
    const file = join(tempDir(), 'mcp.json');
    expect(() => readClientConfig('cursor', { file })).toThrow(
      expect.objectContaining({
        code: 'FILE_NOT_FOUND',
        message: `Cursor has no config at ${file}: no servers to import from it`,
      }),
    );
    writeFileSync(file, JSON.stringify(CLAUDE_DESKTOP));
    expect(readClientConfig('cursor', { file })).toEqual({ text: JSON.stringify(CLAUDE_DESKTOP), source: file });
    writeFileSync(file, ' '.repeat(11 * 1024 * 1024));
    expect(() => readClientConfig('cursor', { file })).toThrow(expect.objectContaining({ code: 'FILE_TOO_LARGE' }));
  });

  it("reads a project's own config (Cursor, VS Code, Claude Code), and says Claude Desktop and Windsurf keep none", () => {
    const project = tempDir();
    expect(projectConfigPath('cursor', project)).toBe(join(project, '.cursor', 'mcp.json'));
    expect(projectConfigPath('vscode', project)).toBe(join(project, '.vscode', 'mcp.json'));
    expect(projectConfigPath('claude-code', project)).toBe(join(project, '.mcp.json'));
    expect(() => readClientConfig('vscode', { project })).toThrow(
      expect.objectContaining({
        code: 'FILE_NOT_FOUND',
        message: `VS Code has no config for the project ${project} at ${join(project, '.vscode', 'mcp.json')}: no servers to import from it`,
      }),
    );
    writeFileSync(join(project, '.mcp.json'), '{ "mcpServers": {} }');
    expect(readClientConfig('claude-code', { project }).source).toBe(join(project, '.mcp.json'));
    for (const client of ['claude', 'windsurf'] as const) {
      expect(() => readClientConfig(client, { project })).toThrow(
        expect.objectContaining({
          code: 'VALIDATION_ERROR',
          message: expect.stringContaining('keeps no config per project'),
        }),
      );
    }
  });

  it('takes a project folder as a full path or one under home, and refuses a relative one', () => {
    expect(projectFolder('/work/app', '/home/me')).toBe('/work/app');
    expect(projectFolder('~/code/app', '/home/me')).toBe(join('/home/me', 'code', 'app'));
    expect(() => projectFolder('code/app')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', message: expect.stringContaining('full path') }),
    );
  });
});
