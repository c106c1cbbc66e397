import { isRecord } from '../model/is-record';

/**
 * A stdio transport's reader of messages (the SDKs' ReadBuffer: append,
 * readMessage, clear) that answers each line that is no JSON-RPC message,
 * instead of dropping it. Both SDKs' stdio transports drop such a line (the
 * v2 one without a word), so a client that sent `"params": null` or a line
 * cut short waited for its answer until it gave up (60 s in the SDK's
 * client). JSON-RPC 2.0 answers it: -32700 for text that is no JSON, -32600
 * for JSON that is no request, with the request's id where it has one.
 */
export class AnsweringReader<M> {
  private buffer: Buffer | undefined;

  constructor(
    /** The SDK's own deserializeMessage: what passes it is what the SDK would have passed on. */
    private readonly parse: (line: string) => M,
    /** Writes one line of output to the client. */
    private readonly write: (line: string) => void,
  ) {}

  append(chunk: Buffer): void {
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): M | null {
    while (this.buffer) {
      const newline = this.buffer.indexOf(0x0a);
      if (newline === -1) return null;
      const line = this.buffer.toString('utf8', 0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.subarray(newline + 1);
      try {
        return this.parse(line);
      } catch {
        // A blank line between messages asks nothing.
        if (line.trim() === '') continue;
        const answer = answerTo(line);
        if (answer) this.write(`${JSON.stringify(answer)}\n`);
        // A response is never answered (JSON-RPC 2.0).
        else process.stderr.write('flowbench mcp: dropped a response that is not valid JSON-RPC\n');
      }
    }
    return null;
  }

  clear(): void {
    this.buffer = undefined;
  }
}

/** Writes a line of protocol output (stdout carries nothing else). */
export const toStdout = (line: string): void => void process.stdout.write(line);

/** The error response to a line the SDK would not take; none to one shaped as a response (it has no method, and a result or error). */
export function answerTo(
  line: string,
): { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not JSON' } };
  }
  const fields = isRecord(message) ? message : undefined;
  if (fields && !('method' in fields) && ('result' in fields || 'error' in fields)) return undefined;
  const id = fields?.id;
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: { code: -32600, message: `Invalid Request: ${whatIsWrong(fields)}` },
  };
}

/** What keeps a parsed line from being a JSON-RPC message, said as plainly as the common cases allow. */
function whatIsWrong(message: Record<string, unknown> | undefined): string {
  if (!message) return 'a message is a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in message && typeof message.method !== 'string') return 'method must be a string';
  if ('params' in message && !isRecord(message.params)) return 'params must be an object when given';
  const params = message.params as Record<string, unknown> | undefined;
  if (params && '_meta' in params && !isRecord(params._meta)) return 'params._meta must be an object';
  if ('id' in message && typeof message.id !== 'string' && typeof message.id !== 'number')
    return 'id must be a string or a number';
  return 'it is no JSON-RPC request, notification or response';
}

/**
 * Gives an SDK stdio transport this reader. The transports keep theirs in a
 * field (`_readBuffer`) that neither SDK documents: a version that renamed it
 * fails here, at start, instead of dropping lines again.
 */
export function answerInvalidLines<T extends object, M>(
  transport: T,
  parse: (line: string) => M,
  write: (line: string) => void,
): T {
  if (!('_readBuffer' in transport)) {
    throw new Error("the MCP SDK's stdio transport has no _readBuffer: Flowbench's reader of its lines needs updating");
  }
  (transport as { _readBuffer: unknown })._readBuffer = new AnsweringReader(parse, write);
  return transport;
}
