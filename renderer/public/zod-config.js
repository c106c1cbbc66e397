// zod builds its object schemas with `new Function` unless told not to, and
// first tries once whether it may. Where a CSP forbids eval (the editor's
// index.html, and the frames MCP clients show flows' views in), the browser
// logs that refused try as a CSP error on every load. zod reads its settings
// from this global when it loads, and schemas are built as modules load, so
// this runs before any of them: as a deferred script ahead of the editor's
// module in index.html (deferred scripts run in document order),
// and as the first import of the view's script (renderer/mcp-view/).
globalThis.__zod_globalConfig = { jitless: true };
