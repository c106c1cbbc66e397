import { once } from 'node:events';
import { createServer, connect, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { greeterFlow } from '../../tests/helpers/flow-builder';
import { useTempDir } from '../../tests/helpers/temp';
import { openDatabase, type FlowbenchDatabase } from './database';
import { FlowRepository } from './flow-repository';
import { createRunRecorder } from './run-recorder';
import { GROUP_COMMIT_MS, RunLog } from './run-log';

const tempDir = useTempDir();
const flow = greeterFlow();
let store: FlowbenchDatabase;
let log: RunLog;
let server: Server;

beforeEach(async () => {
  store = openDatabase(join(tempDir(), 'log.db'));
  new FlowRepository(store).create(flow);
  log = new RunLog(store);
  server = createServer((socket) => socket.end()).listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterEach(() => {
  log.close();
  store.close();
  server.close();
});

it('commits a group after the I/O that was waiting when it fell due: a run’s requests leave before its records are written', async () => {
  const storedRuns = () => store.sqlite.prepare('SELECT count(*) FROM runs').pluck().get();
  const record = createRunRecorder(log, { flow, trigger: 'cli' });
  record({ type: 'run.started', runId: 'run-1', flowId: flow.id, at: Date.now(), inputs: {} });
  record({ type: 'node.started', runId: 'run-1', nodeId: 'greet', attempt: 1, at: Date.now() });
  // A connection opened (a model request), then the thread busy until the group commit is due.
  const { port } = server.address() as { port: number };
  const socket = connect(port, '127.0.0.1');
  // Node calls connect(2) on the next tick; the loop turns only after the wait below.
  await new Promise((resolve) => process.nextTick(resolve));
  const due = performance.now() + GROUP_COMMIT_MS + 5;
  while (performance.now() < due);
  const storedAtConnect = await new Promise((resolve) => socket.once('connect', () => resolve(storedRuns())));
  socket.destroy();
  expect(storedAtConnect).toBe(0);
  await log.committed();
  expect(storedRuns()).toBe(1);
});
