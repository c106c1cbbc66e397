/**
 * A W3C Trace Context `traceparent` (version-traceid-parentid-flags), as MCP
 * clients send it in a request's `_meta`. One that is not well formed is
 * ignored, as the specification tells receivers to do.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function validTraceparent(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, parentId] = match;
  if (version === 'ff' || /^0+$/.test(traceId ?? '') || /^0+$/.test(parentId ?? '')) return undefined;
  return value;
}
