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

/** Parses JSON text; a syntax error becomes INVALID_JSON with a line and column. */
export function parseJsonText(text: string, source: string): unknown {
  // A byte order mark, as some Windows editors write, is not content.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (text.trim() === '') throw new FlowbenchError('INVALID_JSON', `${source} is empty`, { source });
    // JSON.parse's messages differ across engines; jsonc-parser reports offsets.
    const errors: ParseError[] = [];
    parseLenient(text, errors, { disallowComments: true, allowTrailingComma: false });
    const first = errors[0];
    const reason = first ? `${lineAndColumn(text, first.offset)}: ${describe(first.error)}` : (error as Error).message;
    throw new FlowbenchError('INVALID_JSON', `${source} is not valid JSON at ${reason}`, { source }, { cause: error });
  }
}

/**
 * Parses JSON text that may hold comments and trailing commas, as editors'
 * config files do (VS Code's `mcp.json`); a syntax error becomes INVALID_JSON
 * with a line and column.
 */
export function parseJsoncText(text: string, source: string): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new FlowbenchError('INVALID_JSON', `${source} is empty`, { source });
  const errors: ParseError[] = [];
  const value: unknown = parseLenient(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    const reason = `${lineAndColumn(text, first.offset)}: ${describe(first.error)}`;
    throw new FlowbenchError('INVALID_JSON', `${source} is not valid JSON at ${reason}`, { source });
  }
  return value;
}
