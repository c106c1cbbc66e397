import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { echoFlow } from '../tests/fixtures/mcp-flows';
import { prepareDatabase, publishFlows } from '../tests/helpers/mcp';
import { BIN } from '../tests/helpers/cli';

const db = join(mkdtempSync(join(tmpdir(), 'prof-')), 'p.db');
prepareDatabase(db, (s) => publishFlows(s, [echoFlow]));
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', BIN, 'mcp', '--db', db], { stdio: ['pipe', 'pipe', 'inherit'] });
let buffered = '';
let resolveNext: ((v: unknown) => void) | undefined;
child.stdout.on('data', (c: Buffer) => {
  buffered += c.toString();
  let i: number;
  while ((i = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    const msg = JSON.parse(line) as { id?: number };
    if (msg.id !== undefined) resolveNext?.(msg);
  }
});
const call = (msg: object) => new Promise((r) => { resolveNext = r; child.stdin.write(JSON.stringify(msg) + '\n'); });
await call({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'p', version: '1' } } });
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
const t = performance.now();
const N = 8000;
for (let i = 1; i <= N; i++) await call({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo_tool', arguments: { message: 'hi' } } });
console.log('per call ms', (performance.now() - t) / N);
child.stdin.end();
await new Promise((r) => child.on('exit', r));
