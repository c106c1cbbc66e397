import type { IncomingMessage } from 'node:http';

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

interface Accepted {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
}

/** What a server on each port accepts, made once: every request (each MCP call) is checked. */
const acceptedByPort = new Map<number, Accepted>();

function acceptedFor(port: number): Accepted {
  let accepted = acceptedByPort.get(port);
  if (!accepted) {
    accepted = {
      hosts: new Set(LOCAL_HOSTS.map((h) => `${h}:${port}`)),
      origins: new Set(LOCAL_HOSTS.map((h) => `http://${h}:${port}`)),
    };
    acceptedByPort.set(port, accepted);
  }
  return accepted;
}

/**
 * DNS-rebinding protection for servers on 127.0.0.1: the Host header must name
 * this machine and port, and an Origin, when sent, must be this server.
 * Returns why a request is refused, or undefined when it may proceed.
 */
export function refuseForeignRequest(req: IncomingMessage, port: number): string | undefined {
  const { hosts, origins } = acceptedFor(port);
  const host = req.headers.host ?? '';
  if (!hosts.has(host)) return `Host "${host}" is not this server`;
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.has(origin)) return `Origin "${origin}" is not allowed`;
  return undefined;
}
