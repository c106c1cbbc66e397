import { api } from '../api/client';
import type { AnyEditorField } from '../../../core/nodes/define-node';
import { FLOWBENCH_SERVER, type ToolInfo } from '../../../core/model/tools';
import { useAppStore } from '../store/app-store';

/** The suggestions asked of Flowbench's API; JSONPaths are worked out in the editor (PathChoices). */
export type SuggestKind = Exclude<NonNullable<AnyEditorField['suggest']>, 'paths'>;

// Asked once per page: listing a provider's models is a request to that provider, a server's tools a connection.
const cache = new Map<string, Promise<readonly string[]>>();

/**
 * The inspector's suggestions for a text field: provider names, a provider's
 * models (`context`: the provider, empty for the default), connected MCP
 * servers, a server's tools (`context`: the server, empty for all), the
 * library's agent versions, saved flows. A source that cannot be reached
 * offers none: the field still takes any text.
 */
export function suggestionsFor(kind: SuggestKind, context: string): Promise<readonly string[]> {
  const key = `${kind}:${context}`;
  let found = cache.get(key);
  if (!found) {
    found = load(kind, context).catch(() => []);
    cache.set(key, found);
  }
  if (kind !== 'flows') return found;
  // A flow calling itself would never end (SUBFLOW_CYCLE): the flow being edited is not offered.
  const own = useAppStore.getState().flow?.tool.name;
  return found.then((names) => names.filter((name) => name !== own));
}

async function load(kind: SuggestKind, context: string): Promise<readonly string[]> {
  switch (kind) {
    case 'providers':
      return (await api.providers.list({})).map((p) => p.name);
    case 'models': {
      const name = await providerToAsk(context);
      return name ? (await api.providers.test({ name })).models : [];
    }
    case 'servers':
      return [...(await api.servers.list({})).map((s) => s.config.name), FLOWBENCH_SERVER];
    case 'tools':
      return (await toolsOffered(context)).map((t) => t.name);
    case 'agents':
      return (await api.agents.list({})).flatMap((a) => (a.latestVersion ? [a.latestVersion.id] : []));
    case 'flows':
      return (await api.flows.list({})).map((f) => f.toolName);
  }
}

/**
 * The provider whose models a model field offers: the one its node names, once
 * that is a provider's whole name, else the default. The name follows the
 * Provider field as it is typed: asking for each part of it ("o", "op", …)
 * was a refused request (404) at every key.
 */
async function providerToAsk(name: string): Promise<string | undefined> {
  const providers = await api.providers.list({});
  if (name) return providers.some((p) => p.name === name) ? name : undefined;
  return providers.find((p) => p.isDefault)?.name;
}

const toolLists = new Map<string, Promise<ToolInfo[]>>();

/**
 * The tools of the connected server `server` (every server's when empty),
 * connecting to those not connected yet: once per page for each, shared by
 * the Tool field's choices and an MCP tool node's arguments (two connection
 * tests of one server at once could close each other's). A server that
 * cannot be reached throws; asked again, it is tried again.
 */
export function serverTools(server: string): Promise<ToolInfo[]> {
  let found = toolLists.get(server);
  if (!found) {
    found = (async () => {
      const servers = (await api.servers.list({})).filter((s) => !server || s.config.name === server);
      const listed = await Promise.all(
        servers.map(async (s) => (s.status.tools ? s : await api.servers.test({ name: s.config.name }))),
      );
      return listed.flatMap((s) => s.status.tools ?? []);
    })();
    toolLists.set(server, found);
    found.catch(() => toolLists.delete(server));
  }
  return found;
}

/** A tool as a list offers it: its name and the first line of what it does. */
export interface OfferedTool {
  name: string;
  description: string;
}

/**
 * The tools a server offers (see serverTools), or for "flowbench" the
 * published flows by tool name: what the Tool field suggests and an agent's
 * tool checklist lists.
 */
export async function toolsOffered(server: string): Promise<OfferedTool[]> {
  const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]?.trim() ?? '';
  if (server === FLOWBENCH_SERVER) {
    const flows = (await api.flows.list({})).filter((f) => f.publishedVersion !== undefined);
    return flows.map((f) => ({ name: f.toolName, description: firstLine(f.description) }));
  }
  return (await serverTools(server)).map((t) => ({ name: t.name, description: firstLine(t.description) }));
}
