import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AbortSignalLike } from '../model/abort';
import { CallSignal } from './call-signal';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import type { ValidateFunction } from 'ajv';
import { loadAjv } from '../model/json-schema';
import { stderrHint } from './stderr-hint';
import { answerStreamWatch } from './answer-stream-watch';
import {
  connectError,
  isMcpError,
  isUnanswered,
  loadMcpSdk,
  lostSession,
  megabytes,
  serverNotFound,
  overLimitError,
  Reconnect,
  refusedStatus,
  speaksOnlySse,
  ToolListRefused,
  UNANSWERED,
  unreachable,
  type McpSdk,
} from './mcp-failures';
import {
  contentText,
  type McpServerConfig,
  type ServerStatus,
  type ToolCallOptions,
  type ToolInfo,
  type ToolPort,
  type ToolResult,
} from '../model/tools';

/** How long read settings are trusted before they are read again. */
const CONFIG_FRESH_MS = 1000;

/** The last lines a stdio server wrote to stderr: why it did not start is usually there. */
const STDERR_TAIL = 2000;

interface Connection {
  /** The settings it was made with (as text): edited settings make a new one. */
  key: string;
  config: McpServerConfig;
  client?: Client;
  connecting?: Promise<Client>;
  status: ServerStatus;
  stderr: string;
  /** The size a message of the server's went past (the SDK's stdio limit), when that closed the connection. */
  overLimit?: number;
}

export interface ConnectionsOptions {
  clientVersion: string;
  /** Told when a server's state or tool list changed (the servers screen refreshes). */
  onChange?: (server: string) => void;
}

/**
 * Flowbench as an MCP client: connects to the configured servers on demand
 * (stdio or Streamable HTTP) within their time limit, keeps each connection
 * for later calls, keeps their tool lists fresh on `tools/list_changed`, and
 * remembers the last error of each. Also the ToolPort nodes call tools through.
 */
export class McpConnections implements ToolPort {
  private readonly connections = new Map<string, Connection>();
  /** The settings as last read, and when: every tool call needs them, and reading them is a query. */
  private snapshot: { at: number; configs: readonly McpServerConfig[] } | undefined;
  /** Each tool's compiled input schema, by the schema object (a refreshed tool list compiles again). */
  private readonly validators = new WeakMap<object, ValidateFunction>();

  constructor(
    private readonly readConfigs: () => readonly McpServerConfig[],
    private readonly options: ConnectionsOptions,
  ) {}

  /**
   * The servers' settings, read again at most every CONFIG_FRESH_MS (edits in
   * this process call `forget` and are seen at once; another process's within
   * that time).
   */
  private configs(): readonly McpServerConfig[] {
    const now = Date.now();
    if (!this.snapshot || now - this.snapshot.at > CONFIG_FRESH_MS) {
      this.snapshot = { at: now, configs: this.readConfigs() };
    }
    return this.snapshot.configs;
  }

  /** Settings changed here: read them again, and reconnect the server on its next use. */
  async forget(name: string): Promise<void> {
    this.snapshot = undefined;
    await this.disconnect(name);
  }

  /** Every configured server's state, in settings order. */
  statuses(): ServerStatus[] {
    return this.configs().map(
      (config) => this.connections.get(config.name)?.status ?? { name: config.name, state: 'idle' },
    );
  }

  private config(name: string): McpServerConfig {
    const configs = this.configs();
    const found = configs.find((c) => c.name === name);
    if (!found) {
      throw serverNotFound(
        name,
        configs.map((c) => c.name),
      );
    }
    return found;
  }

  /** The connected client of a server, connecting first when needed. */
  async client(name: string): Promise<Client> {
    const config = this.config(name);
    let connection = this.connections.get(name);
    // Settings read again are new objects: compare their text only then.
    const key = connection?.config === config ? connection.key : JSON.stringify(config);
    if (connection) connection.config = config;
    if (connection && connection.key !== key) {
      await this.disconnect(name);
      connection = undefined;
    }
    if (connection?.client) return connection.client;
    if (connection?.connecting) return connection.connecting;
    const fresh: Connection = connection ?? { key, config, status: { name, state: 'idle' }, stderr: '' };
    this.connections.set(name, fresh);
    fresh.connecting = this.connect(config, fresh).finally(() => {
      delete fresh.connecting;
    });
    return fresh.connecting;
  }

  private async connect(config: McpServerConfig, connection: Connection): Promise<Client> {
    const { name } = config;
    this.setStatus(connection, { name, state: 'connecting', ...lastError(connection.status) });
    let client: Client | undefined;
    try {
      const opened = await this.open(config, connection);
      client = opened.client;
      const legacy = opened.legacy;
      const tools = await listAll(client, name, config.connectTimeoutMs);
      connection.client = client;
      connection.overLimit = undefined;
      client.onclose = () => {
        if (connection.client !== client) return;
        delete connection.client;
        const overLimit = connection.overLimit;
        this.setStatus(connection, {
          name,
          state: 'failed',
          lastError: {
            code: overLimit === undefined ? 'SERVER_UNAVAILABLE' : 'TOOL_ERROR',
            message:
              overLimit === undefined
                ? `server "${name}" closed the connection${stderrHint(connection.stderr)}`
                : `server "${name}" sent a message over ${megabytes(overLimit)}, more than Flowbench reads from a server over stdio: the connection was closed, and the next call opens it again`,
            at: new Date().toISOString(),
          },
        });
      };
      const info = client.getServerVersion();
      this.setStatus(connection, {
        name,
        state: 'connected',
        connectedAt: new Date().toISOString(),
        tools,
        ...(info ? { serverInfo: { name: info.name, version: info.version } } : {}),
        ...(legacy ? { transport: 'sse' as const } : {}),
      });
      return client;
    } catch (thrown) {
      await client?.close().catch(() => undefined);
      const error = connectError(config, thrown, connection.stderr);
      this.setStatus(connection, {
        name,
        state: 'failed',
        lastError: { code: error.code, message: error.message, at: new Date().toISOString() },
      });
      throw error;
    }
  }

  /**
   * A client connected over the server's transport. An HTTP server that refuses
   * Streamable HTTP's first POST with a 4xx is tried over the older HTTP+SSE
   * transport at the same URL (`legacy`), as the specification's backward
   * compatibility asks of clients: n8n's MCP Client Tool and older servers speak only that.
   */
  private async open(config: McpServerConfig, connection: Connection): Promise<{ client: Client; legacy: boolean }> {
    const timeout = { timeout: config.connectTimeoutMs };
    const mcp = await loadMcpSdk();
    const client = this.newClient(mcp, config.name, connection);
    try {
      await client.connect(this.transport(mcp, config, connection), timeout);
      return { client, legacy: false };
    } catch (thrown) {
      await client.close().catch(() => undefined);
      if (config.transport !== 'http' || !speaksOnlySse(thrown)) throw thrown;
      const sse = this.newClient(mcp, config.name, connection);
      try {
        await sse.connect(
          new mcp.SSEClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }),
          timeout,
        );
        return { client: sse, legacy: true };
      } catch (failed) {
        await sse.close().catch(() => undefined);
        // Both said: the server may speak Streamable HTTP at another path.
        throw new Error(
          `it refused Streamable HTTP (HTTP ${refusedStatus(thrown)}) and did not connect over the older HTTP+SSE transport either (${failed instanceof Error ? failed.message : String(failed)})`,
        );
      }
    }
  }

  /** A client that keeps the connection's tool list as the server says it changed. */
  private newClient(mcp: McpSdk, name: string, connection: Connection): Client {
    const client: Client = new mcp.Client(
      { name: 'flowbench', version: this.options.clientVersion },
      {
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error || !tools || connection.client !== client) return;
              this.setStatus(connection, { ...connection.status, tools: tools.map((t) => toolInfo(name, t)) });
            },
          },
        },
      },
    );
    // The SDK's stdio reader refuses a message past its limit, says so here, and closes the connection:
    // the server did not close it, and a call in flight is told why (see overLimitError).
    client.onerror = (error) => {
      const limit = /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message);
      if (limit) connection.overLimit = Number(limit[1]);
    };
    return client;
  }

  private transport(mcp: McpSdk, config: McpServerConfig, connection: Connection): Transport {
    if (config.transport === 'http') {
      const transport = new mcp.StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
        // A call whose answer stream ended without the answer is settled then (see answerStreamWatch).
        fetch: answerStreamWatch((id) =>
          transport.onmessage?.({ jsonrpc: '2.0', id, error: { code: UNANSWERED, message: 'no answer' } }),
        ),
      });
      return transport;
    }
    const transport = new mcp.StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...mcp.getDefaultEnvironment(), ...config.env },
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    });
    connection.stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      connection.stderr = (connection.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return transport;
  }

  private setStatus(connection: Connection, status: ServerStatus): void {
    connection.status = status;
    this.options.onChange?.(status.name);
  }

  /** Connects afresh and lists the tools: the servers screen's and `servers test`'s check. */
  async test(name: string): Promise<ServerStatus> {
    await this.disconnect(name);
    try {
      await this.client(name);
    } catch {
      // The status says why.
    }
    return this.connections.get(name)?.status ?? { name, state: 'idle' };
  }

  /** The client of a server connected with its current settings, without waiting; undefined otherwise. */
  private ready(name: string): Client | undefined {
    const connection = this.connections.get(name);
    return connection?.client && connection.config === this.configs().find((c) => c.name === name)
      ? connection.client
      : undefined;
  }

  async listTools(server: string, signal?: AbortSignalLike): Promise<ToolInfo[]> {
    if (!this.ready(server)) await this.withSignal(this.client(server), signal);
    return this.connections.get(server)?.status.tools ?? [];
  }

  async findTool(server: string, tool: string, signal?: AbortSignalLike): Promise<ToolInfo> {
    const names = server ? [server] : this.configs().map((c) => c.name);
    const offered: string[] = [];
    for (const name of names) {
      const tools = await this.listTools(name, signal);
      const found = tools.find((t) => t.name === tool);
      if (found) return found;
      offered.push(...tools.map((t) => (server ? t.name : `${name}/${t.name}`)));
    }
    throw new FlowbenchError(
      'TOOL_NOT_FOUND',
      `${server ? `server "${server}" offers` : 'the connected servers offer'} no tool "${tool}"${offered.length > 0 ? ` (tools: ${offered.slice(0, 30).join(', ')})` : ''}`,
      { server, tool },
    );
  }

  /** A tool of a connected server, found without waiting. */
  private readyTool(server: string, tool: string): ToolInfo | undefined {
    return this.connections.get(server)?.status.tools?.find((t) => t.name === tool);
  }

  /** Problems with the arguments, if the tool's schema is compiled already; undefined otherwise. */
  private argumentProblems(info: ToolInfo, args: Record<string, unknown>): string[] | undefined {
    const validate = this.validators.get(info.inputSchema);
    if (!validate) return undefined;
    if (validate(args)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  }

  /**
   * Compiles the tool's input schema once. A schema the checker cannot read
   * (the server's to get right) checks nothing; a checker that did not load
   * is Flowbench's fault and fails the call rather than check nothing.
   */
  private async compileAndCheck(info: ToolInfo, args: Record<string, unknown>): Promise<string[]> {
    const checker = await loadAjv();
    try {
      this.validators.set(info.inputSchema, checker.compile(info.inputSchema));
    } catch {
      return [];
    }
    return this.argumentProblems(info, args) ?? [];
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<ToolResult> {
    // A server connected with its settings answers from memory; only the first call waits for it.
    const info =
      (server && this.ready(server) ? this.readyTool(server, tool) : undefined) ??
      (await this.findTool(server, tool, options.signal));
    const problems = this.argumentProblems(info, args) ?? (await this.compileAndCheck(info, args));
    if (problems.length > 0) {
      throw new FlowbenchError(
        'TOOL_ARGUMENTS_INVALID',
        `arguments of ${info.server}/${tool} do not match its input schema: ${problems.join('; ')}`,
        { server: info.server, tool, problems },
      );
    }
    const config = this.config(info.server);
    const timeoutMs = options.timeoutMs ?? config.toolTimeoutMs;
    const client = this.ready(info.server) ?? (await this.client(info.server));
    // Each call gets a signal of its own, forwarded from the caller's and let go afterwards (see CallSignal).
    const signal = new CallSignal(options.signal);
    const send = (to: Client) =>
      to.callTool({ name: tool, arguments: args }, undefined, { timeout: timeoutMs, signal: signal.asAbortSignal() });
    try {
      let result: Awaited<ReturnType<typeof send>>;
      try {
        result = await send(client);
      } catch (thrown) {
        if (!lostSession(thrown)) throw thrown;
        // The server forgot the session (it restarted): it took nothing of this call, which goes again
        // in a new session, as the specification asks of clients. Before, every later call failed so.
        await this.disconnect(info.server);
        const again = await this.client(info.server).catch((error: unknown) => {
          throw new Reconnect(error);
        });
        result = await send(again);
      }
      const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
      return {
        content,
        text: contentText(content),
        isError: result.isError === true,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      };
    } catch (thrown) {
      if (options.signal.aborted) throw options.signal.reason;
      // Connecting again failed: said as any failed connect is (SERVER_UNAVAILABLE), not as the tool's error.
      if (thrown instanceof Reconnect) throw thrown.error;
      if (isMcpError(thrown, 'RequestTimeout')) {
        throw new FlowbenchError('TOOL_TIMEOUT', `${info.server}/${tool} took longer than ${timeoutMs} ms`, {
          server: info.server,
          tool,
          timeoutMs,
        });
      }
      if (isUnanswered(thrown)) {
        throw new FlowbenchError(
          'SERVER_UNAVAILABLE',
          `server "${info.server}" ended its answer to ${tool} without the answer: it may have stopped or failed mid-call`,
          { server: info.server, tool },
        );
      }
      if (isMcpError(thrown, 'ConnectionClosed')) {
        const overLimit = this.connections.get(info.server)?.overLimit;
        if (overLimit !== undefined) throw overLimitError(info.server, tool, overLimit);
        throw new FlowbenchError(
          'SERVER_UNAVAILABLE',
          `server "${info.server}" closed while ${tool} ran${stderrHint(this.connections.get(info.server)?.stderr ?? '')}`,
          { server: info.server, tool },
        );
      }
      const why = unreachable(thrown);
      if (why !== undefined) {
        // Connected again at the next call: the old connection's session is gone with the server, most likely.
        await this.disconnect(info.server);
        throw new FlowbenchError(
          'SERVER_UNAVAILABLE',
          `server "${info.server}" cannot be reached at ${config.transport === 'http' ? config.url : 'its address'} (${why})`,
          { server: info.server, tool },
        );
      }
      const error = toFlowbenchError(thrown);
      throw new FlowbenchError('TOOL_ERROR', `${info.server}/${tool} failed: ${error.message}`, {
        server: info.server,
        tool,
      });
    } finally {
      signal.release();
    }
  }

  /** The promise, or the signal's reason if it aborts first; the listener goes when either settles. */
  private async withSignal<T>(promise: Promise<T>, signal: AbortSignalLike | undefined): Promise<T> {
    if (!signal) return promise;
    if (signal.aborted) throw toFlowbenchError(signal.reason);
    let onAbort = () => undefined as void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(toFlowbenchError(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([promise, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async disconnect(name: string): Promise<void> {
    const connection = this.connections.get(name);
    if (!connection) return;
    this.connections.delete(name);
    const client = connection.client ?? (await connection.connecting?.catch(() => undefined));
    delete connection.client;
    await client?.close().catch(() => undefined);
  }

  /** Closes every connection (stdio servers' processes end). */
  async close(): Promise<void> {
    await Promise.all([...this.connections.keys()].map((name) => this.disconnect(name)));
  }
}

function lastError(status: ServerStatus): Pick<ServerStatus, 'lastError'> {
  return status.lastError ? { lastError: status.lastError } : {};
}

function toolInfo(server: string, tool: Tool): ToolInfo {
  return {
    server,
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  };
}

/** Every page of `tools/list`. */
async function listAll(client: Client, server: string, timeoutMs: number): Promise<ToolInfo[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: ToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs }).catch((error: unknown) => {
      const issues = (error as { issues?: unknown } | undefined)?.issues;
      throw Array.isArray(issues) ? new ToolListRefused(issues) : error;
    });
    tools.push(...page.tools.map((t) => toolInfo(server, t)));
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
