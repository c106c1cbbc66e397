import type { ServerResponse } from 'node:http';

/**
 * Requests that stay open until the client goes, never answered on their own:
 * the 2026-07-28 listen stream, which carries the catalogue's notifications.
 */
export const OPEN_ENDED_METHODS: ReadonlySet<string> = new Set(['subscriptions/listen']);

const openEnded = new WeakSet<ServerResponse>();

/** Says that `res` answers an open-ended request: a host that stops does not wait for its end. */
export function markOpenEnded(res: ServerResponse, body: unknown): void {
  const method = typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
  if (typeof method === 'string' && OPEN_ENDED_METHODS.has(method)) openEnded.add(res);
}

export const isOpenEnded = (res: ServerResponse): boolean => openEnded.has(res);
