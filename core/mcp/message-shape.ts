/**
 * Quick refusals for the MCP SDK's message guards (isJSONRPCNotification,
 * isJSONRPCResultResponse, isJSONRPCErrorResponse), which the CLI's build puts
 * in front of them (scripts/sdk-message-guards.mjs). The SDK asks each guard
 * of every message it handles, and each is a zod parse of a strict object
 * schema: a request checked as a notification, a result or an error fails,
 * and a failing parse builds a ZodError with every issue's message. A
 * tools/call over stdio made four such failing parses: about 2 µs each in a
 * loop, several times that in the server. With the refusals, sequential stdio
 * calls of a one-node flow tool took 167–174 µs (p50) instead of 196–205 with
 * a 2026-07-28 client and 148 instead of 160 with a 2025-11-25 one, the main
 * thread 134–152 µs of CPU a call instead of 170–178 (the bare v2 server 124
 * and 123 µs in the same runs, alternating).
 *
 * Each function here is false only where the schema surely refuses: the value
 * is an object with an own enumerable key the strict schema does not declare
 * (zod's strict check walks the keys with for…in and refuses any it does not
 * know, whatever its value). Everything else still goes to the schema, so a
 * guard answers what it answered before; core/mcp/message-shape.test.ts checks
 * that against the SDK's own guards.
 */

const hasKey = (value: object, key: string): boolean => Object.prototype.propertyIsEnumerable.call(value, key);
const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** False for a message with an id: a JSON-RPC notification has none (a request, a response). */
export const maybeNotification = (value: unknown): boolean => !(isObject(value) && hasKey(value, 'id'));

/** False for a message with a method or an error: a result response has neither. */
export const maybeResultResponse = (value: unknown): boolean =>
  !(isObject(value) && (hasKey(value, 'method') || hasKey(value, 'error')));

/** False for a message with a method or a result: an error response has neither. */
export const maybeErrorResponse = (value: unknown): boolean =>
  !(isObject(value) && (hasKey(value, 'method') || hasKey(value, 'result')));
