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

/** What cancels a run from outside it: a host that stops (RunFlowOptions.going). */
export interface Cancellable {
  abort(reason: unknown): void;
}

/** Where a run is kept while it goes, for a host that stops to cancel it. */
export interface RunsGoing {
  add(run: Cancellable): void;
  delete(run: Cancellable): void;
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
 *
 * The caller's signal (an MCP request's, the CLI's Ctrl-C) is listened to the
 * same way: only once something of the run waits (a node's promise, a retry's
 * backoff). An abort event can only come while the run waits: a run that
 * never does ends within the turn of the event loop that started it. Adding
 * and removing that listener cost an MCP call 1.7 µs of its server's thread.
 */
export class RunCancellation implements Cancellable {
  private controller: AbortController | undefined;
  private readonly listeners = new Set<() => void>();
  private abortReason: unknown;
  aborted = false;
  /** The caller's signal, and what cancels the run when it aborts (made only for a run that has one). */
  private caller: { signal: AbortSignal; forward: () => void } | undefined;
  private isFollowing = false;

  get reason(): unknown {
    return this.abortReason;
  }

  /** An AbortSignal that follows this cancellation, for code that takes one (fetch, sleep, the AI SDK). */
  get signal(): AbortSignal {
    this.followCaller();
    if (!this.controller) {
      this.controller = sharedController();
      if (this.aborted) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /**
   * Cancels the run when the caller's signal aborts, with `reasonOf` of its
   * reason: at once when it already has, else once something waits (see above).
   */
  follow(signal: AbortSignal | undefined, reasonOf: (reason: unknown) => unknown): void {
    if (!signal) return;
    const forward = () => this.abort(reasonOf(signal.reason));
    this.caller = { signal, forward };
    if (signal.aborted) forward();
  }

  /** The run is over: the caller's signal no longer holds it. */
  release(): void {
    if (this.isFollowing) this.caller?.signal.removeEventListener('abort', this.caller.forward);
    this.isFollowing = false;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    this.controller?.abort(reason);
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  /**
   * For what waits: calls `listener` once, when this is aborted (at once if it
   * already is), and from now on the caller's signal is listened to. Returns
   * how to stop listening.
   */
  onAbort(listener: () => void): () => void {
    this.followCaller();
    return this.listen(listener);
  }

  /**
   * As onAbort, without listening to the caller's signal: for the scheduler,
   * which hears a caller's abort whenever one can come, through what waits.
   */
  listen(listener: () => void): () => void {
    if (this.aborted) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private followCaller(): void {
    if (this.isFollowing || !this.caller || this.aborted) return;
    this.isFollowing = true;
    this.caller.signal.addEventListener('abort', this.caller.forward, { once: true });
  }
}
