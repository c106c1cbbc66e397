import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * A minimal MCP Apps host, as Claude or VS Code are: it puts a view's HTML in
 * a sandboxed frame (scripts only, no same-origin), connects ext-apps'
 * AppBridge to it, and hands over the tool's input and result.
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
  frame.srcdoc = html;
}

(window as unknown as { showView: typeof showView }).showView = showView;
