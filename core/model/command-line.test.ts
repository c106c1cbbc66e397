import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './command-line';

describe('splitCommandLine', () => {
  it('splits a pasted command line as a shell would: quotes, backslashes, variables kept as written', () => {
    expect(splitCommandLine('npx -y @modelcontextprotocol/server-everything')).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
    });
    expect(splitCommandLine('  uvx "mcp server" --dir /my\\ notes --token $TOKEN ')).toEqual({
      command: 'uvx',
      args: ['mcp server', '--dir', '/my notes', '--token', '$TOKEN'],
    });
  });

  it('leaves alone one word, and a line only a shell could run', () => {
    expect(splitCommandLine('npx')).toBeUndefined();
    expect(splitCommandLine('cat servers.txt | xargs npx')).toBeUndefined();
    expect(splitCommandLine('node server.js > log.txt')).toBeUndefined();
    expect(splitCommandLine('node *.js')).toBeUndefined();
  });
});
