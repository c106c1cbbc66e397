import { parse as parseLenient, printParseErrorCode, type ParseError, type ParseErrorCode } from 'jsonc-parser';
import { FlowbenchError } from '../model/errors';

/** jsonc-parser's error names, in words. */
function describe(code: ParseErrorCode): string {
  const name = printParseErrorCode(code);
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

/** A byte order mark, as some Windows editors write, is not content. */
const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** INVALID_JSON for `source`, saying where jsonc-parser found the first error (or why, without one). */
function invalidJson(text: string, source: string, first: ParseError | undefined, cause?: unknown): FlowbenchError {
  if (text.trim() === '') return new FlowbenchError('INVALID_JSON', `${source} is empty`, { source });
  const reason = first ? `${lineAndColumn(text, first.offset)}: ${describe(first.error)}` : (cause as Error).message;
  return new FlowbenchError(
    'INVALID_JSON',
    `${source} is not valid JSON at ${reason}`,
    { source },
    cause === undefined ? undefined : { cause },
  );
}

/** Parses JSON text; a syntax error becomes INVALID_JSON with a line and column. */
export function parseJsonText(text: string, source: string): unknown {
  text = withoutBom(text);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // JSON.parse's messages differ across engines; jsonc-parser reports offsets.
    const errors: ParseError[] = [];
    parseLenient(text, errors, { disallowComments: true, allowTrailingComma: false });
    throw invalidJson(text, source, errors[0], error);
  }
}

/**
 * Parses JSON text that may hold comments and trailing commas, as editors'
 * config files do (VS Code's `mcp.json`); a syntax error becomes INVALID_JSON
 * with a line and column.
 */
export function parseJsoncText(text: string, source: string): unknown {
  text = withoutBom(text);
  const errors: ParseError[] = [];
  const value: unknown = parseLenient(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || text.trim() === '') throw invalidJson(text, source, errors[0]);
  return value;
}
