// An esbuild plugin for the CLI's build: the MCP SDKs' message guards get a quick
// refusal in front of their schema (core/mcp/message-shape.ts says why and how).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Each guard, the strict schema it parses with, and the refusal put in front of it. */
const GUARDS = [
  ['isJSONRPCNotification', 'JSONRPCNotificationSchema', 'maybeNotification'],
  ['isJSONRPCResultResponse', 'JSONRPCResultResponseSchema', 'maybeResultResponse'],
  ['isJSONRPCErrorResponse', 'JSONRPCErrorResponseSchema', 'maybeErrorResponse'],
];

/** Where each SDK defines them: the v2 server in a hashed chunk, the v1 SDK in its types module. */
const PACKAGES = [
  {
    name: '@modelcontextprotocol/server',
    file: /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]src-[^\\/]+\.mjs$/,
  },
  { name: '@modelcontextprotocol/sdk', file: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]types\.js$/ },
];
const ANY_SDK_FILE = /[\\/]@modelcontextprotocol[\\/](server|sdk)[\\/]/;

/** The module's source with each guard asking its refusal first; throws unless each guard is there once, as written. */
export function withGuardPrechecks(source, shapeModule, where) {
  let patched = source;
  for (const [guard, schema, maybe] of GUARDS) {
    const definition = new RegExp(
      `(\\b(?:export )?const ${guard} = \\(value\\) => )(${schema}\\.safeParse\\(value\\)\\.success;)`,
      'g',
    );
    const found = patched.match(definition)?.length ?? 0;
    if (found !== 1) {
      throw new Error(
        `${where}: ${guard} is defined ${found} times as scripts/sdk-message-guards.mjs expects; update it for this SDK`,
      );
    }
    patched = patched.replace(definition, `$1__flowbench_${maybe}(value) && $2`);
  }
  const names = GUARDS.map(([, , maybe]) => `${maybe} as __flowbench_${maybe}`).join(', ');
  return `import { ${names} } from ${JSON.stringify(shapeModule)};\n${patched}`;
}

/**
 * The plugin. A build that bundles either SDK and did not find its guards
 * fails: the SDK moved them, and the speed-up would be lost without a word.
 */
export function sdkMessageGuards(root) {
  const shapeModule = join(root, 'core', 'mcp', 'message-shape.ts');
  return {
    name: 'sdk-message-guards',
    setup(build) {
      const bundled = new Set();
      const patched = new Set();
      build.onStart(() => {
        bundled.clear();
        patched.clear();
      });
      build.onLoad({ filter: ANY_SDK_FILE }, async ({ path }) => {
        const sdk = PACKAGES.find(({ name }) => path.includes(join('node_modules', name, '')));
        if (!sdk) return undefined;
        bundled.add(sdk.name);
        if (!sdk.file.test(path)) return undefined;
        const source = await readFile(path, 'utf8');
        // The v2 server has other hashed chunks; the guards are in one of them.
        if (!source.includes('const isJSONRPCNotification = ')) return undefined;
        patched.add(sdk.name);
        return { contents: withGuardPrechecks(source, shapeModule, path), loader: 'js' };
      });
      build.onEnd(() => {
        const missed = [...bundled].filter((name) => !patched.has(name));
        if (missed.length > 0) {
          throw new Error(
            `${missed.join(' and ')}: message guards not found; scripts/sdk-message-guards.mjs needs updating for this SDK`,
          );
        }
      });
    },
  };
}
