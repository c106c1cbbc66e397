/** A stack frame (Node's `    at …`, Python's `  File "…", line …`) or Node's closing `Node.js v20…` line. */
const NOISE_LINE = /^\s+at\s|^\s+File "|^Node\.js v\d/;
/** An error's own line: `SyntaxError: …`, `Error: Cannot find module …`, `ModuleNotFoundError: …`, `error: …`. */
const ERROR_LINE = /^\s*(?:Uncaught\s+)?(?:[\w.]*(?:Error|Exception)\b.*:|(?:error|fatal|panic)\b[:!\s])/i;

/**
 * What a server that failed wrote to stderr, in a line or three: the error's
 * own line when one is there, else the last lines but stack frames. A
 * Node server that crashes ends with its stack and a version line, and the
 * last three lines said only `at async ModuleJob._link … | Node.js v20…`.
 */
export function stderrHint(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !NOISE_LINE.test(line));
  const error = lines.findLast((line) => ERROR_LINE.test(line));
  const said =
    error !== undefined
      ? error.trim()
      : lines
          .slice(-3)
          .map((line) => line.trim())
          .join(' | ');
  return said ? ` (its stderr: ${said})` : '';
}
