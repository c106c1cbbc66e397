const FS_WITH_GLOB = new URL('./fs.mjs', import.meta.url).href;

/** Only the conformance suite's own imports of fs are redirected. */
export async function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/') ?? false;
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: FS_WITH_GLOB, shortCircuit: true };
  return next(specifier, context);
}
