/**
 * The heavy half of the CLI: the engine, the store, the formats and the MCP
 * servers, with the libraries they pull in. `lib.ts` loads this module before
 * a command's action runs, so `flowbench --help` (and a typo) starts with the
 * command list alone. Commands reach these through `lib`, never by a static
 * import, or the build would put them back on every start's path.
 */
export { openServices } from '../services/open-services';
export { withImportProblems } from '../formats/shared';
export { importFlowText, readFlowFile } from '../services/import-service';
export { installExamples } from '../services/examples';
export { readImportFile } from '../services/read-import-file';
export { validateFlow } from '../model/validate';
export { ChangeSetSchema } from '../model/change-set';
export { nodeRegistry } from '../nodes/registry';
export { publishWarnings } from '../model/publish-warnings';
export { loadJsonParser } from '../formats/lazy';
export { coerceTextInput } from '../model/inputs';
export { runMarkdown, runSummary } from '../model/run-report';
export { stringifyValue } from '../model/template';
export { AgentSettingsSchema } from '../model/agents';
export { parseOrRefuse } from '../model/parse';
export { ConversationSchema } from '../model/memory';
import type { startHttpHost as StartHttpHost } from '../host/http-host';
import type { serveStdio as ServeStdio } from '../mcp/stdio';

export { httpToken } from '../host/host-tokens';

/** `serve`: loaded when it runs, so `flowbench mcp` does not load the HTTP host and the v2 SDK behind it. */
export async function startHttpHost(...args: Parameters<typeof StartHttpHost>): ReturnType<typeof StartHttpHost> {
  const { startHttpHost: start } = await import('../host/http-host');
  return start(...args);
}

/** `flowbench mcp`: loaded when it runs, so that other commands do not load the MCP server and the SDK behind it. */
export async function serveStdio(...args: Parameters<typeof ServeStdio>): ReturnType<typeof ServeStdio> {
  const { serveStdio: serve } = await import('../mcp/stdio');
  return serve(...args);
}
export { FLOWBENCH_VERSION } from '../services/version';
export { runningServe, recordServe } from '../services/serve-registry';
export { cliQuestions } from './terminal-questions';
