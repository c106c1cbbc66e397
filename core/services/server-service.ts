import { FlowbenchError } from '../model/errors';
import { parseOrRefuse } from '../model/parse';
import {
  keepSecrets,
  maskServer,
  McpServerConfigSchema,
  ServerSettingsSchema,
  type McpServerConfig,
  type ServerListing,
} from '../model/tools';
import type { SettingsRepository } from '../store/settings-repository';
import { McpConnections, serverNotFound } from '../tools/mcp-connections';
import { FLOWBENCH_VERSION } from './version';

const KEY = 'mcp_servers';

/**
 * External MCP servers: their settings (kept like provider settings, secrets
 * included) and the live connections to them, which nodes use as their ToolPort.
 */
export class ServerService {
  readonly connections: McpConnections;

  constructor(
    private readonly settings: SettingsRepository,
    onChange?: (server: string) => void,
  ) {
    this.connections = new McpConnections(() => this.configs(), {
      clientVersion: FLOWBENCH_VERSION,
      ...(onChange ? { onChange } : {}),
    });
  }

  configs(): McpServerConfig[] {
    return this.settings.get(KEY, ServerSettingsSchema, { servers: [] }).servers;
  }

  list(): ServerListing[] {
    const statuses = new Map(this.connections.statuses().map((s) => [s.name, s]));
    return this.configs().map((config) => ({
      config: maskServer(config),
      status: statuses.get(config.name) ?? { name: config.name, state: 'idle' },
    }));
  }

  /**
   * Adds a server or replaces the one with its name (`previousName` renames
   * one). Masked secrets keep their stored values; the connection is made
   * afresh on next use.
   */
  set(input: unknown, previousName?: string): McpServerConfig {
    const edited = parseOrRefuse(McpServerConfigSchema, input, 'server');
    const configs = this.configs();
    const replaced = previousName ?? edited.name;
    if (previousName !== undefined && !configs.some((c) => c.name === previousName)) {
      throw this.notFound(previousName);
    }
    if (previousName !== undefined && previousName !== edited.name && configs.some((c) => c.name === edited.name)) {
      throw new FlowbenchError('VALIDATION_ERROR', `a server named "${edited.name}" already exists`);
    }
    const config = keepSecrets(
      edited,
      configs.find((c) => c.name === replaced),
    );
    const servers = configs.map((c) => (c.name === replaced ? config : c));
    if (!configs.some((c) => c.name === replaced)) servers.push(config);
    this.settings.set(KEY, { servers });
    void this.connections.forget(replaced);
    return maskServer(config);
  }

  remove(name: string): void {
    const configs = this.configs();
    if (!configs.some((c) => c.name === name)) throw this.notFound(name);
    this.settings.set(KEY, { servers: configs.filter((c) => c.name !== name) });
    void this.connections.forget(name);
  }

  /** Connects afresh and lists the tools; the status says what went wrong, if anything. */
  async test(name: string): Promise<ServerListing> {
    const config = this.configs().find((c) => c.name === name);
    if (!config) throw this.notFound(name);
    const status = await this.connections.test(name);
    return { config: maskServer(config), status };
  }

  private notFound(name: string): FlowbenchError {
    return serverNotFound(
      name,
      this.configs().map((c) => c.name),
    );
  }

  close(): Promise<void> {
    return this.connections.close();
  }
}
