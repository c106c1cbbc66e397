// zod compiles its object schemas with `new Function` unless told not to,
// and tries once whether it may: where a CSP forbids eval, that try is logged
// as a refusal. Imported first by Find's worker, which has no page to run
// renderer/public/zod-config.js (the page's same setting) before its modules.
(globalThis as { __zod_globalConfig?: { jitless: boolean } }).__zod_globalConfig = { jitless: true };
