import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * The CSP hosts give a view that asks for no outside domains: its own inline
 * script and style, data: images, and nothing else (no eval, no network).
 */
const VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/**
 * Put first in the view's <head>: the CSP, and a watcher that logs whatever
 * it refuses as an error (Chromium does not report a sandboxed frame's
 * refusals to the page's console, as hosts' own sandbox proxies do not).
 */
const VIEW_HEAD = `<meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}"><script>document.addEventListener('securitypolicyviolation', (e) => console.error('the CSP refused ' + e.violatedDirective + ': ' + (e.blockedURI || e.sample)));</script>`;

/**
 * A minimal MCP Apps host, as Claude or VS Code are: it puts a view's HTML in
 * a sandboxed frame (scripts only, no same-origin) under VIEW_CSP, connects
 * ext-apps' AppBridge to it, and hands over the tool's input and result.
 */
async function showView(html: string, toolInput: Record<string, unknown>, toolResult: unknown): Promise<void> {
  const frame = document.createElement('iframe');
  frame.sandbox.add('allow-scripts');
  frame.title = 'view';
  frame.style.width = '480px';
  frame.style.border = '1px solid #ccc';
  document.body.appendChild(frame);
  const view = frame.contentWindow as Window;
  const bridge = new AppBridge(null, { name: 'Flowbench test host', version: '1' }, {});
  // The view reports its size as it draws, as hosts expect; the frame follows it.
  bridge.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    void bridge.sendToolInput({ arguments: toolInput });
    void bridge.sendToolResult(toolResult as Parameters<AppBridge['sendToolResult']>[0]);
  };
  await bridge.connect(new PostMessageTransport(view, view));
  frame.srcdoc = html.replace('<head>', `<head>${VIEW_HEAD}`);
}

(window as unknown as { showView: typeof showView }).showView = showView;
