import type { AbortSignalLike } from './abort';

/** How long a code node's code may run: a loop that never ends is stopped (CODE_TIMEOUT). */
export const CODE_TIME_LIMIT_MS = 10_000;
/** What its code may return, as JSON: a run record keeps each step's output. */
export const MAX_CODE_RESULT_BYTES = 10 * 1024 * 1024;
/** The memory its sandbox may take. */
export const CODE_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;

/** One run of a code node's code: the body of a function given `values`. */
export interface CodeRequest {
  nodeId: string;
  code: string;
  /** The node's values by name, as its references resolved them (JSON). */
  values: Record<string, unknown>;
  signal: AbortSignalLike;
  /** Each line the code writes with `console.log` (and info, warn, error, debug), as it writes it. */
  log?: (line: string) => void;
}

/** How many console lines a run of a code node keeps, and how long each may be: a loop that logs stays bounded. */
export const MAX_CODE_CONSOLE_LINES = 100;
export const MAX_CODE_CONSOLE_LINE_CHARS = 2000;
/** The last line kept when more were logged than MAX_CODE_CONSOLE_LINES. */
export const MORE_CONSOLE_LINES = `… more lines were logged than the ${MAX_CODE_CONSOLE_LINES} kept`;

/**
 * How code nodes run their code: the engine's (core/engine/run-code.ts) in a
 * QuickJS sandbox with no network, files, clock or Node, within
 * CODE_TIME_LIMIT_MS and CODE_MEMORY_LIMIT_BYTES. What the code returns comes
 * back as JSON; a throw or a syntax error is CODE_ERROR naming the line.
 */
export interface CodePort {
  run(request: CodeRequest): Promise<unknown>;
}
