import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { echoFlow } from '../fixtures/mcp-flows';
import { connectHttp, connectStdio, prepareDatabase, publishFlows } from '../helpers/mcp';
import { startServe } from '../helpers/serve';
import { openServices } from '../../core/services/open-services';
import { useTempDir } from '../helpers/temp';

const tempDir = useTempDir();
const CONCURRENT = 50;
const ROUNDS = 3;

/**
 * Keeps CONCURRENT echo calls in flight until `stop` is called, and collects
 * the messages whose results came back: the calls the server acknowledged.
 */
function callContinuously(client: Client, round: number) {
  const acknowledged: string[] = [];
  let isStopped = false;
  let next = 0;
  const caller = async () => {
    while (!isStopped) {
      const message = `r${round}-m${next++}`;
      try {
        // A call cut off by the kill is never answered: it times out, unacknowledged.
        const result = (await client.callTool({ name: 'echo_tool', arguments: { message } }, undefined, {
          timeout: 3000,
        })) as {
          content: { text: string }[];
        };
        if (result.content[0]?.text === `You said: ${message}`) acknowledged.push(message);
      } catch {
        return; // The server is gone: this call was never acknowledged.
      }
    }
  };
  const callers = Array.from({ length: CONCURRENT }, caller);
  return {
    acknowledged,
    stop: async () => {
      isStopped = true;
      await Promise.allSettled(callers);
    },
  };
}

/**
 * The messages of every run stored with status succeeded, once a Flowbench
 * has opened the database again (as the next `flowbench` command, the app or
 * `serve` would): what the killed process had journaled but not committed is
 * stored then (core/store/run-journal.ts).
 */
function storedMessages(db: string): Set<string> {
  openServices(db).close();
  return rawMessages(db);
}

/** The same, read with a plain SQLite connection and nothing else. */
function rawMessages(db: string): Set<string> {
  const sqlite = new Database(db, { readonly: true });
  const rows = sqlite.prepare("SELECT inputs FROM runs WHERE status = 'succeeded'").pluck().all() as string[];
  sqlite.close();
  return new Set(rows.map((inputs) => (JSON.parse(inputs) as { message: string }).message));
}

/**
 * Waits until more than 20 calls were answered, then a little longer, so that
 * the kill lands among calls in flight however slow the machine is today (a
 * fixed wait let a loaded machine answer none before it).
 */
async function whenCallsFlow(acknowledged: readonly string[], extraMs: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (acknowledged.length <= 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, extraMs));
}

const missingFrom = (acknowledged: readonly string[], stored: Set<string>) =>
  acknowledged.filter((m) => !stored.has(m));

describe('every acknowledged MCP call is a stored run, even when the server is killed (finding 3)', () => {
  it(`over stdio: SIGKILL during ${CONCURRENT} concurrent calls, ${ROUNDS} times`, async () => {
    const db = join(tempDir(), 'killed-stdio.db');
    prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
    let acknowledgedTotal = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { client, pid } = await connectStdio(db);
      const calls = callContinuously(client, round);
      await whenCallsFlow(calls.acknowledged, 100 + round * 150);
      process.kill(pid, 'SIGKILL');
      await calls.stop();
      await client.close().catch(() => undefined);
      expect(calls.acknowledged.length, 'calls answered before the kill').toBeGreaterThan(20);
      expect(missingFrom(calls.acknowledged, storedMessages(db))).toEqual([]);
      acknowledgedTotal += calls.acknowledged.length;
    }
    expect(acknowledgedTotal).toBeGreaterThan(ROUNDS * 20);
  });

  it(`over HTTP: SIGKILL of serve during ${CONCURRENT} concurrent calls, ${ROUNDS} times`, async () => {
    const db = join(tempDir(), 'killed-http.db');
    prepareDatabase(db, (services) => publishFlows(services, [echoFlow]));
    for (let round = 0; round < ROUNDS; round++) {
      const serve = await startServe(db);
      const client = await connectHttp(serve.mcpUrl, serve.token);
      const calls = callContinuously(client, round);
      await whenCallsFlow(calls.acknowledged, 100 + round * 150);
      await serve.kill();
      await calls.stop();
      await client.close().catch(() => undefined);
      expect(calls.acknowledged.length, 'calls answered before the kill').toBeGreaterThan(20);
      expect(missingFrom(calls.acknowledged, storedMessages(db))).toEqual([]);
    }
  });
});
