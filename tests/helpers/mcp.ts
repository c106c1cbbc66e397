import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { openServices, type Services } from '../../core/services/open-services';
import type { FlowInput } from '../../core/model/flow';
import { BIN, ROOT } from './cli';
import { startOpenAiServer, type OpenAiServer } from './openai-server';

/** What an MCP Apps host declares (io.modelcontextprotocol/ui): Flowbench then offers its views. */
export const SHOWS_VIEWS = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

/** A JSON-RPC message as `flowbench mcp` writes it, for tests that read the wire as it is. */
export interface RawMessage {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawStdio {
  child: ChildProcessWithoutNullStreams;
  /** Every message the server wrote so far, in order. */
  messages: RawMessage[];
  /** Called with each message as it comes (after it joined `messages`). */
  onMessage: (listener: (message: RawMessage) => void) => void;
  send: (message: unknown) => void;
  /** One line as given: a test of what the server does with text that is not JSON-RPC. */
  sendLine: (line: string) => void;
  close: () => void;
}

/**
 * `flowbench mcp` over stdio spoken to line by line, without an SDK client:
 * for what a client's SDK would never send or would hide (broken messages,
 * answers to the server's own requests, the order of what comes back).
 */
export function spawnRawStdio(db: string): RawStdio {
  const child = spawn(process.execPath, [BIN, '--db', db, 'mcp'], {
    cwd: ROOT,
    env: { ...process.env, FLOWBENCH_DB: '' },
  });
  const messages: RawMessage[] = [];
  const listeners: ((message: RawMessage) => void)[] = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) continue;
      const message = JSON.parse(line) as RawMessage;
      messages.push(message);
      for (const listener of listeners) listener(message);
    }
  });
  const sendLine = (line: string) => void child.stdin.write(`${line}\n`);
  return {
    child,
    messages,
    onMessage: (listener) => void listeners.push(listener),
    send: (message) => sendLine(JSON.stringify(message)),
    sendLine,
    close: () => void child.kill(),
  };
}

/** Opens a database, lets the test add flows and settings, and closes it again (once a promise it returns settles). */
export function prepareDatabase<T>(path: string, setup: (services: Services) => T): T {
  const services = openServices(path);
  let result: T;
  try {
    result = setup(services);
  } catch (error) {
    services.close();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => services.close()) as T;
  services.close();
  return result;
}

/** Stores and publishes flows in one go. */
export function publishFlows(services: Services, flows: readonly FlowInput[]): void {
  for (const flow of flows) {
    const created = services.flows.create(flow);
    services.versions.publish(created.id);
  }
}

/**
 * A database at `path` whose default provider `test` is a local model that
 * answers "Forty-two." `delayMs` after each request, with `flows` published.
 * The caller closes the model.
 */
export async function slowModelDatabase(
  path: string,
  delayMs: number,
  flows: readonly FlowInput[],
): Promise<{ db: string; model: OpenAiServer }> {
  const model = await startOpenAiServer(() => ({ content: 'Forty-two.', delayMs }));
  try {
    prepareDatabase(path, (services) => {
      services.providers.set(
        { name: 'test', kind: 'openai-compatible', baseUrl: model.url, defaultModel: 'test-model' },
        true,
      );
      publishFlows(services, flows);
    });
  } catch (error) {
    await model.close();
    throw error;
  }
  return { db: path, model };
}

/** The real SDK client talking to `./bin/flowbench mcp` over stdio. */
export async function connectStdio(
  db: string,
  name = 'flowbench-tests',
  options: ClientSetup<Client> = {},
): Promise<{ client: Client; stderr: () => string; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--db', db, 'mcp'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), FLOWBENCH_DB: '' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name, version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  options.setup?.(client);
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: transport.pid ?? 0 };
}

/** The real SDK client over Streamable HTTP. */
export async function connectHttp(
  url: string,
  token: string | undefined,
  name = 'flowbench-http-tests',
  options: ClientSetup<Client> = {},
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  options.setup?.(client);
  await client.connect(transport);
  return client;
}

/** What a test client declares, and the handlers it registers before connecting (elicitation). */
export interface ClientSetup<C> {
  capabilities?: Record<string, object>;
  setup?: (client: C) => void;
}

/** How the v2 SDK client picks a revision: pinned to 2026-07-28, or its default 2025 handshake. */
export type V2Mode = 'modern' | 'legacy';

const v2Options = (mode: V2Mode) => ({
  versionNegotiation: { mode: mode === 'modern' ? { pin: '2026-07-28' } : ('legacy' as const) },
});

/** The v2 SDK client (`@modelcontextprotocol/client`) talking to `./bin/flowbench mcp` over stdio. */
export function connectStdioV2(
  db: string,
  mode: V2Mode,
  name = 'flowbench-v2-tests',
  options: ClientSetup<ClientV2> = {},
): Promise<ClientV2> {
  const transport = new StdioClientTransportV2({
    command: process.execPath,
    args: [BIN, '--db', db, 'mcp'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), FLOWBENCH_DB: '' },
    stderr: 'ignore',
  });
  return connectV2(transport, mode, name, options);
}

/** The v2 SDK client over Streamable HTTP. */
export function connectHttpV2(
  url: string,
  token: string | undefined,
  mode: V2Mode,
  name = 'flowbench-v2-http-tests',
  options: ClientSetup<ClientV2> = {},
): Promise<ClientV2> {
  const transport = new StreamableHTTPClientTransportV2(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  return connectV2(transport, mode, name, options);
}

async function connectV2(
  transport: Parameters<ClientV2['connect']>[0],
  mode: V2Mode,
  name: string,
  options: ClientSetup<ClientV2>,
): Promise<ClientV2> {
  const client = new ClientV2(
    { name, version: '1.0.0' },
    { ...v2Options(mode), capabilities: options.capabilities ?? {} },
  );
  options.setup?.(client);
  await client.connect(transport);
  return client;
}

/**
 * Reads a database every 50 ms (a served process commits a run a moment
 * after its answer) until `read` says it is done, or 5 s have passed; then
 * gives its last value.
 */
async function pollStored<T>(path: string, read: (services: Services) => { value: T; done: boolean }): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const services = openServices(path);
    let result: { value: T; done: boolean };
    try {
      result = read(services);
    } finally {
      services.close();
    }
    if (result.done || Date.now() > deadline) return result.value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The runs in a database once there are at least `count` (or 5 s have passed). */
export function storedRuns(path: string, count: number) {
  return pollStored(path, (services) => {
    const runs = services.runs.list({ limit: 100 });
    return { value: runs, done: runs.length >= count };
  });
}

/**
 * The stored record of the newest run a client started, once it has ended
 * (or as it is after 5 s), or undefined when none is stored by then.
 */
export function storedRunOf(path: string, client: string) {
  return pollStored(path, (services) => {
    const summary = services.runs.list({ limit: 100 }).find((r) => r.client === client);
    return {
      value: summary ? services.runs.get(summary.id) : undefined,
      done: summary !== undefined && summary.status !== 'running',
    };
  });
}

let rawId = 1;
/**
 * One 2026-07-28 request as its wire has it (the per-request envelope, the
 * standard headers), for what no SDK client sends (the Tasks extension, a
 * forged requestState); resolves with the JSON-RPC response, from JSON or
 * from the last event of an SSE answer.
 */
export async function sendModern<T>(
  url: string,
  token: string | undefined,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, object>,
): Promise<T> {
  const name = (params.name ?? params.taskId) as string | undefined;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: rawId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw-2026-client', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : (text
        .match(/^data: (.*)$/gm)
        ?.at(-1)
        ?.slice(6) ?? text);
  return JSON.parse(json) as T;
}

/** A 2025-11-25 client's first two messages over stdio, as lines a test writes itself: initialize, then initialized. */
export const LEGACY_OPENING = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'script', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];
