import type { Writable } from 'node:stream';

/**
 * Makes the writes `stream` takes within one turn of the event loop leave in
 * one system call: the first write of a turn corks the stream and the turn's
 * end (process.nextTick, after the promise jobs that answer with it) uncorks
 * it, so what was written meanwhile goes out as one writev(2), in order.
 *
 * Why: stdout to a pipe is synchronous on Linux, one write(2) per message,
 * each waking the client to read it. With many calls in flight the answers
 * of one turn (those whose run ended together) each paid that: the pipe
 * writes were about 13 % of `flowbench mcp`'s main thread at 50 callers.
 * Nothing waits for a later turn: a lone answer leaves at the end of the one
 * it was written in, and the stream's backpressure (write's return value,
 * 'drain') is the stream's own.
 */
export function coalesceWrites(stream: Writable): void {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  }) as Writable['write'];
}
