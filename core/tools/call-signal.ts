import type { AbortSignalLike } from '../model/abort';

/**
 * The signal one tool call hands the MCP SDK: aborted, with the same reason,
 * when the caller's signal is, and cut loose from it when the call ends.
 *
 * Why not an AbortController per call: the SDK leaves its abort listener on
 * the signal it is given, so each call needs a signal of its own (an agent's
 * calls share the caller's), and Node's AbortController with its EventTarget
 * costs 3–4 µs to make and listen to, 4–5 % of a local stdio tool call. The
 * SDK reads only what this class has (aborted, reason, throwIfAborted, abort
 * listeners); `tests/tools/agent-tools.test.ts` cancels a call in flight
 * through it.
 */
export class CallSignal {
  aborted = false;
  reason: unknown;
  private listeners: (() => void)[] = [];
  private readonly forward = () => this.abort(this.caller.reason);

  constructor(private readonly caller: AbortSignalLike) {
    if (caller.aborted) this.abort(caller.reason);
    else caller.addEventListener('abort', this.forward);
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: () => void): void {
    if (type !== 'abort') return;
    if (this.aborted) return;
    this.listeners.push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    if (type === 'abort') this.listeners = this.listeners.filter((l) => l !== listener);
  }

  /** The call is over: the caller's signal no longer holds this one. */
  release(): void {
    this.caller.removeEventListener('abort', this.forward);
  }

  private abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /** What the SDK's types ask for; the SDK uses only the members above. */
  asAbortSignal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}
