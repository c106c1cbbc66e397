import { openDatabase, type FlowbenchDatabase, type OpenOptions } from '../store/database';
import { FlowRepository } from '../store/flow-repository';
import { RunLog } from '../store/run-log';
import { recoverJournals } from '../store/run-journal';
import { RUN_STATEMENTS } from '../store/run-statements';
import { RunRepository } from '../store/run-repository';
import { SettingsRepository } from '../store/settings-repository';
import { VersionRepository } from '../store/version-repository';
import { installExamples } from './examples';
import { FlowService } from './flow-service';
import { ProviderService } from './provider-service';
import { RunService } from './run-service';
import { ServerService } from './server-service';
import { calledFlowRefs, libraryProblems } from './library-checks';
import { MemoryRepository } from '../store/memory-repository';
import { MemoryService } from './memory-service';
import { AgentRepository } from '../store/agent-repository';
import { TestService } from './test-service';
import { SecretVault } from './secret-vault';
import { FlowSecretService, secretReaders } from './flow-secret-service';
import { keychainBackend } from './keychain-backend';
import { secretNames, type SecretBackend } from '../model/secrets';

/** Everything a host (CLI, serve, MCP server, desktop main process) works with, over one database. */
export interface Services {
  database: FlowbenchDatabase;
  flows: FlowRepository;
  /** Creating, copying, opening, editing and exporting flows, over the repositories. */
  flowService: FlowService;
  versions: VersionRepository;
  runs: RunRepository;
  /** Where run records are written; `runs` reads them. */
  runLog: RunLog;
  settings: SettingsRepository;
  /** The secret port: API keys and MCP servers' env and header values. */
  secrets: SecretVault;
  /** The secrets flows read as `{{secrets.name}}`. */
  flowSecrets: FlowSecretService;
  providers: ProviderService;
  /** External MCP servers and the connections nodes call their tools through. */
  servers: ServerService;
  /** The agent library. */
  agents: AgentRepository;
  memory: MemoryService;
  runner: RunService;
  /** Runs test cases, and gates publishing on them. */
  tests: TestService;
  close(): void;
}

export interface ServicesOptions extends OpenOptions {
  /** Add the example flows when this open creates the database. */
  seedExamples?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Commit run records on a worker thread: for long-lived hosts (MCP, serve, the app). */
  backgroundWrites?: boolean;
  /**
   * Where secrets go, best first (the app passes safeStorage and the keychain).
   * Default: the OS keychain, unless FLOWBENCH_SECRETS=plain-text (the tests,
   * so they never write into a developer's keychain). Plain text is the last resort.
   */
  secretBackends?: readonly SecretBackend[];
}

function defaultSecretBackends(env: NodeJS.ProcessEnv): SecretBackend[] {
  return env.FLOWBENCH_SECRETS === 'plain-text' ? [] : [keychainBackend()];
}

export function openServices(path: string, options: ServicesOptions = {}): Services {
  const database = openDatabase(path, options);
  const flows = new FlowRepository(database);
  const runLog = new RunLog(database, {
    background: options.backgroundWrites ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  const runs = new RunRepository(database, runLog);
  const settings = new SettingsRepository(database.db);
  const env = options.env ?? process.env;
  const secrets = new SecretVault(settings, options.secretBackends ?? defaultSecretBackends(env));
  const providers = new ProviderService(settings, secrets, env);
  if (database.isNew && options.seedExamples) installExamples(flows);
  // What a process that died had journaled is stored first (its finished runs), then the runs it
  // left "running" are closed as interrupted.
  try {
    recoverJournals(database.sqlite, RUN_STATEMENTS);
  } catch (error) {
    // A locked or read-only database: the journals stay for the next process (or this one's writer) to store.
    process.stderr.write(
      `flowbench: run journals of a stopped Flowbench are not stored yet: ${(error as Error).message}\n`,
    );
  }
  runs.markInterrupted();
  const versions = new VersionRepository(database, flows);
  const servers = new ServerService(settings, secrets);
  const agents = new AgentRepository(database.db);
  const memory = new MemoryRepository(database.db);
  flows.libraryCheck = (flow) =>
    libraryProblems(flow, {
      agents,
      findFlow: (ref) => {
        try {
          return flows.resolve(ref);
        } catch {
          return undefined;
        }
      },
      calledFlows: (id) => (flows.exists(id) ? flows.get(id).nodes.flatMap(calledFlowRefs) : []),
      publishedParameters: (id) => versions.latest(id)?.snapshot.parameters,
      hasSecret: (name) => secrets.storeOf(secretNames.flowSecret(name)) !== undefined,
    });
  const flowSecrets = new FlowSecretService(secrets, () => secretReaders(flows, versions));
  const runner = new RunService(runLog, {
    llm: () => providers.port(),
    readRun: (id) => runs.get(id),
    tools: servers.connections,
    agents,
    findFlow: (ref) => flows.resolve(ref),
    latestVersion: (flowId) => versions.latest(flowId),
    memory: (run) => memory.port(run),
    secrets: flowSecrets.reader,
  });
  return {
    database,
    flows,
    flowService: new FlowService(flows, versions),
    versions,
    runs,
    runLog,
    settings,
    secrets,
    flowSecrets,
    providers,
    servers,
    agents,
    memory: new MemoryService(flows, memory),
    runner,
    tests: new TestService(runner, () => providers.port()),
    close: () => {
      void servers.close();
      runLog.close();
      database.close();
    },
  };
}
