/**
 * The formats' heavy half, loaded by the operations that read or write a
 * file, not by every process that opens the services: the YAML library, the
 * JSONC parser and every importer and exporter are about 420 KB of code,
 * which took 21–23 ms to load in a process that had loaded zod. `flowbench
 * list`, `run` and `mcp` read no file of another tool and paid it at each start.
 */
export const loadImporters = () => import('./detect');
export const loadExporters = () => import('./export');
export const loadClientConfigs = () => import('./mcp-client-config');
export const loadJsonParser = () => import('./parse-json');
