import { setMaxListeners } from 'node:events';

/**
 * A controller whose signal many things in flight listen to at once: an
 * agent's turn calling a dozen tools, a dozen nodes waiting out their retry
 * backoff on the run's signal. Node warns of a leak past 10 listeners; 1,500
 * is what Node's fetch gives a signal it is handed.
 */
export function sharedController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(1500, controller.signal);
  return controller;
}

/**
 * A run's cancellation: abort it to cancel the run (CANCELLED), end it on its
 * time limit (RUN_TIMEOUT) or stop what still runs when the run ends early.
 *
 * Not an AbortController, because making an AbortSignal costs about 5 µs in
 * Node 20 (an EventTarget with its own state), which is a visible part of a
 * one-node MCP call. Most runs are never cancelled and their nodes (templates,
 * conditions) never ask for a signal, so the signal is made only when
 * something asks for it; the scheduler and the node runner listen here.
 */
export class RunCancellation {
  private controller: AbortController | undefined;
  private readonly listeners = new Set<() => void>();
  private abortReason: unknown;
  aborted = false;

  get reason(): unknown {
    return this.abortReason;
  }

  /** An AbortSignal that follows this cancellation, for code that takes one (fetch, sleep, the AI SDK). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = sharedController();
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  /** Calls `listener` once, when this is aborted (at once if it already is); returns how to stop listening. */
  onAbort(listener: () => void): () => void {
    if (this.aborted) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
