import type { IncomingMessage } from 'node:http';

const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * DNS-rebinding protection for servers on 127.0.0.1: the Host header must name
 * this machine and port, and an Origin, when sent, must be this server.
 * Returns why a request is refused, or undefined when it may proceed.
 */
export function refuseForeignRequest(req: IncomingMessage, port: number): string | undefined {
  const allowed = new Set(LOCAL_HOSTS.map((h) => `${h}:${port}`));
  const host = req.headers.host ?? '';
  if (!allowed.has(host)) return `Host "${host}" is not this server`;
  const origin = req.headers.origin;
  if (origin !== undefined && !LOCAL_HOSTS.some((h) => origin === `http://${h}:${port}`))
    return `Origin "${origin}" is not allowed`;
  return undefined;
}
