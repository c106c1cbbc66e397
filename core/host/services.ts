import { openDatabase, type FlowbenchDatabase, type OpenOptions } from '../store/database';
import { FlowRepository } from '../store/flow-repository';
import { RunRepository } from '../store/run-repository';
import { SettingsRepository } from '../store/settings-repository';
import { VersionRepository } from '../store/version-repository';
import { installExamples } from './examples';
import { ProviderService } from './provider-service';
import { RunService } from './run-service';

/** Everything a host (CLI, serve, MCP server, desktop main process) works with, over one database. */
export interface Services {
  database: FlowbenchDatabase;
  flows: FlowRepository;
  versions: VersionRepository;
  runs: RunRepository;
  settings: SettingsRepository;
  providers: ProviderService;
  runner: RunService;
  close(): void;
}

export interface ServicesOptions extends OpenOptions {
  /** Add the example flows when this open creates the database. */
  seedExamples?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Commit run records on a worker thread: for long-lived hosts (MCP, serve, the app). */
  backgroundWrites?: boolean;
}

export function openServices(path: string, options: ServicesOptions = {}): Services {
  const database = openDatabase(path, options);
  const flows = new FlowRepository(database);
  const runs = new RunRepository(database, {
    background: options.backgroundWrites ?? false,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  const settings = new SettingsRepository(database.db);
  const providers = new ProviderService(settings, options.env);
  if (database.isNew && options.seedExamples) installExamples(flows);
  // Runs left "running" by a process that died are closed as interrupted.
  runs.markInterrupted();
  return {
    database,
    flows,
    versions: new VersionRepository(database, flows),
    runs,
    settings,
    providers,
    runner: new RunService(runs, () => providers.port()),
    close: () => {
      runs.close();
      database.close();
    },
  };
}
