import { Readable } from 'node:stream';

/** The largest stdio message read: the SDK's own limit, which closes the connection when it is passed. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The newline-delimited messages of `source`, less each one longer than
 * `max` bytes (`onOversized` is told its start and size) instead of letting
 * it reach the SDK, which would close the connection: one oversized message
 * gets an error, and the server goes on.
 *
 * A Readable fed from the source's data events rather than a Transform piped
 * to: a Transform's writable half defers each chunk's bookkeeping to another
 * tick, which cost a stdio round trip about 3 µs (about 2 % of one here).
 */
export class LineLimiter extends Readable {
  private parts: Buffer[] = [];
  private size = 0;
  /** The start of the oversized line being dropped, or undefined while lines fit. */
  private dropping: string | undefined;

  constructor(
    private readonly source: Readable,
    private readonly max: number,
    private readonly onOversized: (start: string, size: number) => void,
  ) {
    super();
    // A reader that falls behind pauses the source (see _read), as pipe() would.
    source.on('data', (chunk: Buffer) => {
      if (!this.accept(chunk)) source.pause();
    });
    source.once('end', () => this.push(null));
    source.once('error', (error) => this.destroy(error));
  }

  override _read(): void {
    this.source.resume();
  }

  /** Passes on the chunk's whole messages that fit; false when the reader wants no more for now. */
  private accept(chunk: Buffer): boolean {
    // The usual case, whole small messages, passes through untouched.
    if (this.size === 0 && chunk.length <= this.max && chunk[chunk.length - 1] === 0x0a) return this.push(chunk);
    let wantsMore = true;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      this.size += piece.length;
      if (this.dropping === undefined && this.size > this.max) {
        this.dropping = (this.parts[0] ?? piece).subarray(0, 4096).toString('utf8');
        this.parts = [];
      }
      if (this.dropping === undefined) this.parts.push(piece);
      if (newline === -1) break;
      if (this.dropping !== undefined) this.onOversized(this.dropping, this.size);
      else wantsMore = this.push(Buffer.concat(this.parts));
      this.parts = [];
      this.size = 0;
      this.dropping = undefined;
      start = end;
    }
    return wantsMore;
  }
}

/** The id of a JSON-RPC request from the start of its text, so an error can answer it. */
export function requestIdIn(start: string): string | number | null {
  const match = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(start);
  if (!match?.[1]) return null;
  return match[1].startsWith('"') ? (JSON.parse(match[1]) as string) : Number(match[1]);
}
