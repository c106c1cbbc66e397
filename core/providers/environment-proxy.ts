import { FlowbenchError } from '../model/errors';

/** Where a request goes through a proxy: reached directly, always, whatever NO_PROXY says. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The variable's value, the lower-case name first, as curl reads them; an empty one is unset. */
function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  for (const key of [name.toLowerCase(), name]) {
    const value = env[key]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** The proxy URL a variable names; USAGE_ERROR for one fetch could not use, so no request goes out unproxied unsaid. */
function proxyUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = variable(env, name);
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    // A proxy's user and password are not repeated where a terminal or a log keeps them.
    const shown = value.replace(/^(.*\/\/)?[^@]*@/, '$1•••@');
    throw new FlowbenchError(
      'USAGE_ERROR',
      `${name} is "${shown}", which is not a proxy's URL: write it as http://host:port (http://user:password@proxy.example:3128)`,
    );
  }
  return value;
}

/** What useEnvironmentProxy set up, for whoever wants to say it. */
export interface ProxySetting {
  http?: string;
  https?: string;
  noProxy: string;
}

let active: ProxySetting | undefined;

/** The proxy set up in this process, if any: what goes over node:http itself (the model providers' fetch) must go through Node's fetch then. */
export const activeProxy = (): ProxySetting | undefined => active;

/**
 * Sends what Flowbench asks of the network from Node (model providers, HTTP
 * request nodes, MCP servers over HTTP, model lists) through the proxy that
 * HTTPS_PROXY and HTTP_PROXY name, except the hosts NO_PROXY lists, as curl,
 * n8n and most command-line tools do: Node's fetch reads none of them
 * (before Node 24). Loopback is always reached directly, as Chromium does: a
 * model server on this machine, `serve`'s own endpoint. Nothing is loaded
 * when neither is set (the start-up of `flowbench run` and `mcp` pays nothing).
 */
export async function useEnvironmentProxy(env: NodeJS.ProcessEnv = process.env): Promise<ProxySetting | undefined> {
  const http = proxyUrl(env, 'HTTP_PROXY');
  const https = proxyUrl(env, 'HTTPS_PROXY') ?? http;
  if (http === undefined && https === undefined) return undefined;
  const noProxy = [variable(env, 'NO_PROXY'), ...LOOPBACK].filter((entry) => entry !== undefined).join(',');
  // undici's own dispatcher, set where Node's fetch looks for its global one. Bundled (the
  // built CLI), the CommonJS package is the module's default export; from source, its names.
  const loaded = await import('undici');
  const { EnvHttpProxyAgent, setGlobalDispatcher } =
    (loaded as unknown as { default?: typeof loaded }).default ?? loaded;
  setGlobalDispatcher(
    new EnvHttpProxyAgent({ ...(http ? { httpProxy: http } : {}), ...(https ? { httpsProxy: https } : {}), noProxy }),
  );
  active = { ...(http ? { http } : {}), ...(https ? { https } : {}), noProxy };
  return active;
}
