import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FlowbenchError } from '../model/errors';
import type { ResultView } from '../model/node-catalogue';

/** MCP Apps' type for a view's HTML (ext-apps' RESOURCE_MIME_TYPE). */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/** Built by scripts/build-node.mjs (`npm ci` runs it) from renderer/mcp-view/view-app.ts. */
const VIEW_SCRIPT = fileURLToPath(new URL('../../out/views/view-app.js', import.meta.url));
let script: string | undefined;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * A flow's view as one self-contained HTML page (MCP Apps render it in a
 * sandboxed frame with no network): the title, room for the result, the
 * styles, and the view script inline.
 */
export function viewHtml(view: ResultView, kind: 'result' | 'run' = 'result'): string {
  if (script === undefined) {
    if (!existsSync(VIEW_SCRIPT)) {
      throw new FlowbenchError('INTERNAL_ERROR', 'the view script is not built: run `npm run build:node`');
    }
    // A literal `</script` inside the code would end the element early.
    script = readFileSync(VIEW_SCRIPT, 'utf8').replace(/<\/script/gi, '<\\/script');
  }
  const title = escapeHtml(view.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
:root { color-scheme: light dark; font: 14px/1.45 system-ui, sans-serif; }
body { margin: 0; padding: 12px 16px; }
h1 { font-size: 16px; margin: 0 0 8px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid color-mix(in srgb, currentColor 20%, transparent); }
.waiting { opacity: 0.6; }
[data-state="error"] .content { color: #c0392b; }
.node { border-left: 3px solid #888; padding: 4px 10px; margin: 6px 0; }
.node.succeeded { border-color: #2e7d32; }
.node.failed, .node.cancelled { border-color: #c0392b; }
.node header { display: flex; gap: 8px; align-items: baseline; }
.node .status { font-size: 12px; opacity: 0.75; }
img { max-width: 100%; max-height: 24em; display: block; margin: 4px 0 0; }
.node pre { margin: 4px 0 0; white-space: pre-wrap; font: 12px/1.4 ui-monospace, monospace; max-height: 12em; overflow: auto; }
</style>
</head>
<body>
<main id="view" data-state="waiting" data-kind="${kind}">
<h1>${title}</h1>
<section class="content"><p class="waiting">Waiting for the flow's result…</p></section>
</main>
<script>${script}</script>
</body>
</html>
`;
}
