import { loadClientConfigs } from '../formats/lazy';
import type { ServerImportResult } from '../formats/mcp-client-config';
import { FlowbenchError } from '../model/errors';
import { parseOrRefuse } from '../model/parse';
import {
  keepSecrets,
  maskServer,
  McpServerConfigSchema,
  SECRET_MASK,
  serverTarget,
  ServerSettingsSchema,
  type McpServerConfig,
  type ServerListing,
} from '../model/tools';
import type { SettingsRepository } from '../store/settings-repository';
import { McpConnections } from '../tools/mcp-connections';
import { serverNotFound } from '../tools/mcp-failures';
import { secretNames } from '../model/secrets';
import type { SecretVault } from './secret-vault';
import { FLOWBENCH_VERSION } from './version';

const KEY = 'mcp_servers';

/** A server's env or header values, each with the name the vault keeps it under. */
function secretValues(config: McpServerConfig): { name: string; key: string; value: string }[] {
  const [kind, values] =
    config.transport === 'stdio' ? (['env', config.env] as const) : (['header', config.headers] as const);
  return Object.entries(values).map(([key, value]) => ({
    name: secretNames.serverValue(config.name, kind, key),
    key,
    value,
  }));
}

/** The config with each env or header value replaced by `value(name, stored)`. */
function mapSecrets(config: McpServerConfig, value: (name: string, stored: string) => string): McpServerConfig {
  const mapped = Object.fromEntries(secretValues(config).map((s) => [s.key, value(s.name, s.value)]));
  return config.transport === 'stdio' ? { ...config, env: mapped } : { ...config, headers: mapped };
}

/**
 * External MCP servers: their settings (env and header values in the secret
 * vault, the setting holding only masks) and the live connections to them,
 * which nodes use as their ToolPort.
 */
export class ServerService {
  readonly connections: McpConnections;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly secrets: SecretVault,
    onChange?: (server: string) => void,
  ) {
    this.connections = new McpConnections(() => this.configs(), {
      clientVersion: FLOWBENCH_VERSION,
      ...(onChange ? { onChange } : {}),
    });
  }

  /** The servers with their real env and header values, for connecting. */
  configs(): McpServerConfig[] {
    return this.stored().map((config) => this.withValues(config));
  }

  /** One stored server with its env and header values read from the vault. */
  private withValues(config: McpServerConfig): McpServerConfig {
    return mapSecrets(config, (name) => this.secrets.read(name) ?? '');
  }

  /** The setting as kept: values masked (one an older Flowbench kept in it moves to the vault here). */
  private stored(): McpServerConfig[] {
    const servers = this.settings.get(KEY, ServerSettingsSchema, { servers: [] }).servers;
    const inline = servers.flatMap(secretValues).filter((s) => s.value !== SECRET_MASK);
    if (inline.length === 0) return servers;
    for (const secret of inline) this.secrets.write(secret.name, secret.value);
    const masked = servers.map(maskServer);
    this.settings.set(KEY, { servers: masked });
    return masked;
  }

  list(): ServerListing[] {
    const statuses = new Map(this.connections.statuses().map((s) => [s.name, s]));
    return this.stored().map((config) => ({
      config,
      status: statuses.get(config.name) ?? { name: config.name, state: 'idle' },
      ...this.storeOf(config),
    }));
  }

  /** Where the server's values are kept, when it has any. */
  private storeOf(config: McpServerConfig): Pick<ServerListing, 'secretStore'> {
    const first = secretValues(config)[0];
    const store = first ? this.secrets.storeOf(first.name) : undefined;
    return store ? { secretStore: store } : {};
  }

  /**
   * Adds a server or replaces the one with its name (`previousName` renames
   * one). Masked secrets keep their stored values; the connection is made
   * afresh on next use.
   */
  set(input: unknown, previousName?: string): McpServerConfig {
    const edited = parseOrRefuse(McpServerConfigSchema, input, 'server');
    return this.secrets.atomically(() => this.write(edited, previousName));
  }

  private write(edited: McpServerConfig, previousName: string | undefined): McpServerConfig {
    const configs = this.stored();
    const replaced = previousName ?? edited.name;
    if (previousName !== undefined && !configs.some((c) => c.name === previousName)) {
      throw this.notFound(previousName);
    }
    if (previousName !== undefined && previousName !== edited.name && configs.some((c) => c.name === edited.name)) {
      throw new FlowbenchError('VALIDATION_ERROR', `a server named "${edited.name}" already exists`);
    }
    // Only this server's values are read (each one may be a keychain lookup).
    const stored = configs.find((c) => c.name === replaced);
    const previous = stored ? this.withValues(stored) : undefined;
    const config = keepSecrets(edited, previous);
    // The values go to the vault under the (new) name; the old name's values, and keys dropped, go.
    // A value kept as it was under the same name is not written again.
    const unchanged = new Map(previous ? secretValues(previous).map((s) => [s.name, s.value]) : []);
    const values = secretValues(config);
    for (const { name, value } of values) if (unchanged.get(name) !== value) this.secrets.write(name, value);
    const kept = new Set(values.map((v) => v.name));
    for (const name of this.secrets.namesUnder(secretNames.serverPrefix(replaced))) {
      if (!kept.has(name)) this.secrets.remove(name);
    }
    const masked = maskServer(config);
    const servers = configs.map((c) => (c.name === replaced ? masked : c));
    if (!configs.some((c) => c.name === replaced)) servers.push(masked);
    this.settings.set(KEY, { servers });
    void this.connections.forget(replaced);
    return masked;
  }

  /**
   * Adds the servers a desktop client's config lists (its text, and where it
   * came from for the messages; serversFromClientConfig). A server whose name
   * is taken here stays as it is, with a warning, unless `replace`. With
   * `dryRun`, says what it would do and writes nothing. Every server is
   * checked before any is written, and they are written together or not at all.
   */
  async importConfig(
    text: string,
    source: string,
    { replace = false, dryRun = false } = {},
  ): Promise<ServerImportResult> {
    const found = (await loadClientConfigs()).serversFromClientConfig(text, source);
    const existing = new Set(this.stored().map((config) => config.name));
    const problems = [...found.problems];
    const servers = found.servers.map(({ config, where }) => {
      const taken = existing.has(config.name);
      const action = !taken ? 'add' : replace ? 'replace' : 'keep';
      if (action === 'keep') {
        problems.push({
          where,
          message: `a server named "${config.name}" is already here; it stays as it is (replace to take this one)`,
          severity: 'warning',
        });
      }
      return { name: config.name, where, transport: config.transport, target: serverTarget(config), action } as const;
    });
    if (!dryRun) {
      const written = found.servers.filter((_, i) => servers[i]?.action !== 'keep');
      this.secrets.atomically(() => {
        for (const { config } of written) this.write(config, undefined);
      });
    }
    return { servers, problems, written: !dryRun };
  }

  remove(name: string): void {
    const configs = this.stored();
    if (!configs.some((c) => c.name === name)) throw this.notFound(name);
    this.secrets.atomically(() => {
      this.settings.set(KEY, { servers: configs.filter((c) => c.name !== name) });
      for (const secret of this.secrets.namesUnder(secretNames.serverPrefix(name))) this.secrets.remove(secret);
    });
    void this.connections.forget(name);
  }

  /** Connects afresh and lists the tools; the status says what went wrong, if anything. */
  async test(name: string): Promise<ServerListing> {
    const config = this.stored().find((c) => c.name === name);
    if (!config) throw this.notFound(name);
    const status = await this.connections.test(name);
    return { config, status, ...this.storeOf(config) };
  }

  private notFound(name: string): FlowbenchError {
    return serverNotFound(
      name,
      this.stored().map((c) => c.name),
    );
  }

  close(): Promise<void> {
    return this.connections.close();
  }
}
