import { waitAtMost } from '../services/wait';
import { OPEN_ENDED_METHODS } from './open-ended';

/** What PendingAnswers needs of an SDK transport: the Transport interface both MCP SDKs share. */
interface WatchedTransport {
  onmessage?: ((message: never, ...rest: never[]) => void) | undefined;
  send(message: unknown, ...rest: unknown[]): Promise<void>;
}

type Id = string | number;

const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
const isId = (value: unknown): value is Id => typeof value === 'string' || typeof value === 'number';

/**
 * The requests a stdio connection has read and not answered yet. When the
 * client closes its end of stdin, the server answers those before it goes:
 * the MCP specification's stdio shutdown has the client close stdin and then
 * wait for the server to exit, and a script that writes its requests and
 * closes (`printf '…' | flowbench mcp`) got no answer to the call it made.
 * A request the client cancelled is not waited for (a cancelled request gets
 * no answer), nor an open-ended one. A call that waits for a person (an Ask
 * node's question) keeps the process until it is answered or the client,
 * as the specification has it, ends the process with a signal.
 */
export class PendingAnswers {
  private readonly open = new Set<Id>();
  private waiters: (() => void)[] = [];

  /** Watches `transport`'s messages both ways; call it before a server connects to it (it sets `onmessage`). */
  constructor(transport: WatchedTransport) {
    let handler: WatchedTransport['onmessage'];
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      get: () => handler,
      set: (next: WatchedTransport['onmessage']) => (handler = next && this.wrap(next)),
    });
    const send = transport.send.bind(transport);
    transport.send = (message, ...rest) => {
      // A response (an id, no method): its request is answered. The write is under way: the
      // waiters are woken a turn later, once it has left (see `answered`).
      const id = field(message, 'id');
      if (isId(id) && field(message, 'method') === undefined) this.answered(id);
      return send(message, ...rest);
    };
  }

  /** Resolves once every request read so far is answered (at once when none waits), or after `waitMs` if given. */
  async settled(waitMs?: number): Promise<void> {
    if (this.open.size === 0) return;
    const answered = new Promise<void>((resolve) => this.waiters.push(resolve));
    return waitMs === undefined ? answered : waitAtMost(answered, waitMs);
  }

  private wrap(handler: NonNullable<WatchedTransport['onmessage']>): NonNullable<WatchedTransport['onmessage']> {
    return (message, ...rest) => {
      this.read(message);
      handler(message, ...rest);
    };
  }

  private read(message: unknown): void {
    const method = field(message, 'method');
    if (typeof method !== 'string') return;
    const id = field(message, 'id');
    if (isId(id) && !OPEN_ENDED_METHODS.has(method)) this.open.add(id);
    const cancelled = field(field(message, 'params'), 'requestId');
    if (method === 'notifications/cancelled' && isId(cancelled)) this.answered(cancelled);
  }

  private answered(id: Id): void {
    if (!this.open.delete(id) || this.open.size > 0 || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    // After this turn: the answer's write leaves when the turn ends (see coalesceWrites).
    setImmediate(() => waiters.forEach((resolve) => resolve()));
  }
}
