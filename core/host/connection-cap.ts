import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';

/**
 * File descriptors kept for what is not a connection: the database's files
 * (its writer's too), the modules a host loads on first use, an agent's MCP
 * servers' pipes, the editor's files.
 */
const RESERVED_DESCRIPTORS = 128;
/** Connections open at once at most, where the limit allows more: far more than editors and MCP clients open. */
const MOST_CONNECTIONS = 1024;
const FEWEST_CONNECTIONS = 16;

/**
 * Keeps the host's connections under the process's limit of open files: a
 * client that opens connections without end (a leak, a loop) made every
 * open() fail with EMFILE, and a module loaded on first use then failed for
 * good (Node keeps a failed import: the MCP endpoint answered 500 until
 * restarted). Beyond the cap, a new connection is closed at once, and said
 * once on stderr until the count is down again.
 */
export function capConnections(server: Server, limit = openFileLimit()): number {
  const cap = Math.max(FEWEST_CONNECTIONS, Math.min(MOST_CONNECTIONS, limit - RESERVED_DESCRIPTORS));
  server.maxConnections = cap;
  let said = false;
  server.on('drop', () => {
    if (said) return;
    said = true;
    process.stderr.write(
      `flowbench: refusing new connections: ${cap} are open, the most kept so that files can still be opened\n`,
    );
  });
  server.on('connection', () => {
    // Under the cap again: the next refusal is said again.
    if (said) server.getConnections((error, count) => (said = error !== null || count >= cap));
  });
  return cap;
}

/**
 * The process's limit of open files (Node raises it to the hard limit at
 * start). Read on Linux; elsewhere (macOS raised to 10,240 and more; Windows
 * has none of the kind) taken as ample.
 */
function openFileLimit(): number {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    const limit = Number(line);
    return Number.isFinite(limit) && limit > 0 ? limit : Infinity;
  } catch {
    return Infinity;
  }
}
