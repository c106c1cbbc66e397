import {
  invalidRequest,
  invalidResponseAsError,
  isResponseShaped,
  messageProblem,
  parseError,
  type JsonRpcErrorResponse,
} from './jsonrpc-errors';

/**
 * A stdio transport's reader of messages (the SDKs' ReadBuffer: append,
 * readMessage, clear) that answers each line that is no JSON-RPC message,
 * instead of dropping it. Both SDKs' stdio transports drop such a line (the
 * v2 one without a word), so a client that sent `"params": null` or a line
 * cut short waited for its answer until it gave up (60 s in the SDK's
 * client). JSON-RPC 2.0 answers it: -32700 for text that is no JSON, -32600
 * for JSON that is no request, with the request's id where it has one. A
 * broken response is never answered: the request of ours it answers fails
 * with what was wrong (see invalidResponseAsError).
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
        const refusal = refusalOf(line);
        if ('answer' in refusal) {
          this.write(`${JSON.stringify(refusal.answer)}\n`);
          continue;
        }
        const { settle } = refusal;
        process.stderr.write(
          settle
            ? `flowbench mcp: the client's response to request ${settle.id} is not valid JSON-RPC (${(settle.error.data as { invalidResponse: string }).invalidResponse}); that request fails with it\n`
            : 'flowbench mcp: dropped a response that is not valid JSON-RPC and has no id\n',
        );
        if (settle) return this.parse(JSON.stringify(settle));
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

/**
 * What to do with a line the SDK would not take: answer the client with an
 * error, or, for one shaped as a response (no method; a result or an error),
 * never answered, settle the request of ours it answers with the error
 * response to hand the SDK instead (none without a usable id).
 */
export function refusalOf(line: string): { answer: JsonRpcErrorResponse } | { settle?: JsonRpcErrorResponse } {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { answer: parseError('the line is not JSON') };
  }
  if (isResponseShaped(message)) return { settle: invalidResponseAsError(message) };
  return {
    answer: invalidRequest(message, messageProblem(message) ?? 'it is no JSON-RPC request, notification or response'),
  };
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
