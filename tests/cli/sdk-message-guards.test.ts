import { describe, expect, it } from 'vitest';
import { inspectCliBuild } from '../helpers/cli-build';
// @ts-expect-error -- a plain ES module script without type declarations
import { withGuardPrechecks } from '../../scripts/sdk-message-guards.mjs';

const patch = withGuardPrechecks as (source: string, shapeModule: string, where: string) => string;

describe("the CLI build's quick refusals in front of the MCP SDKs' message guards", () => {
  it('are in front of every guard of both SDKs in the built CLI', async () => {
    const { outputFiles } = await inspectCliBuild();
    const definitions = outputFiles.flatMap(({ text }) => [
      // `var x = …`, or `x = …` in a module the build runs only when imported (its `var` hoisted).
      ...text.matchAll(
        /^\s*(?:var )?(isJSONRPC(?:Notification|ResultResponse|ErrorResponse))\d* = \(value\) => ([^;]*);/gm,
      ),
    ]);
    // The v2 server's three and the v1 SDK's three.
    expect(definitions.map(([, guard]) => guard).sort()).toEqual([
      'isJSONRPCErrorResponse',
      'isJSONRPCErrorResponse',
      'isJSONRPCNotification',
      'isJSONRPCNotification',
      'isJSONRPCResultResponse',
      'isJSONRPCResultResponse',
    ]);
    for (const [, , body] of definitions)
      expect(body).toMatch(/^maybe\w+\d*\(value\) && JSONRPC\w+Schema\d*\.safeParse/);
  });

  it('fail the build when an SDK defines a guard otherwise', () => {
    const guards = [
      'const isJSONRPCNotification = (value) => JSONRPCNotificationSchema.safeParse(value).success;',
      'const isJSONRPCResultResponse = (value) => JSONRPCResultResponseSchema.safeParse(value).success;',
      'const isJSONRPCErrorResponse = (value) => JSONRPCErrorResponseSchema.safeParse(value).success;',
    ];
    expect(patch(guards.join('\n'), '/shape.ts', 'sdk.mjs')).toContain(
      'const isJSONRPCNotification = (value) => __flowbench_maybeNotification(value) && JSONRPCNotificationSchema',
    );
    const moved = [guards[0], guards[1], 'const isJSONRPCErrorResponse = (v) => check(v);'].join('\n');
    expect(() => patch(moved, '/shape.ts', 'sdk.mjs')).toThrow(/isJSONRPCErrorResponse is defined 0 times/);
  });
});
