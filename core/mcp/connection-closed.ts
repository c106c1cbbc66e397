import { FlowbenchError } from '../model/errors';

/** What a call's run records when the client's connection closes before its answer. */
const connectionClosed = (): FlowbenchError =>
  new FlowbenchError('CANCELLED', "the run was cancelled: the client's connection closed before the answer");

interface CallsInFlight {
  _requestHandlerAbortControllers?: Map<unknown, AbortController>;
}

/**
 * Aborts the calls a server is still answering, saying why (connectionClosed),
 * as its connection closes. Both SDKs abort them there themselves, the v1 SDK
 * with no reason and the v2 with "Connection closed", and their runs recorded
 * only "the run was cancelled": a 2026-07-28 client over HTTP cancels a call
 * by closing its connection, and a client that dies closes it too. The map of
 * their controllers is a field neither SDK documents (the same name in both);
 * tests/mcp/modern-revision.test.ts and stdin-closed.test.ts read the reason
 * from the stored run. A run already cancelled keeps its first reason (a
 * server stopping says so before it closes its connections).
 */
export function abortCallsInFlight(server: object): void {
  const controllers = (server as CallsInFlight)._requestHandlerAbortControllers;
  if (!controllers || controllers.size === 0) return;
  const reason = connectionClosed();
  for (const controller of controllers.values()) controller.abort(reason);
}
