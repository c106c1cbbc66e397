import type { DesktopShell, DesktopWebContents } from './shell';

const isWebLink = (url: string) => /^https?:\/\//i.test(url);

/**
 * Whether a URL is the app's own page: the built renderer's index.html (any
 * hash route), or in development the renderer's dev server.
 */
export function appPageMatcher(page: { file?: string; devUrl?: string }): (url: string) => boolean {
  const devOrigin = page.devUrl ? new URL(page.devUrl).origin : undefined;
  const fileUrl = page.file ? new URL(`file://${page.file.split('\\').join('/')}`).href : undefined;
  return (url: string) => {
    try {
      const parsed = new URL(url);
      if (devOrigin) return parsed.origin === devOrigin;
      return (
        fileUrl !== undefined && `${parsed.origin === 'null' ? 'file://' : parsed.origin}${parsed.pathname}` === fileUrl
      );
    } catch {
      return false;
    }
  };
}

/**
 * Electron's checklist, points 13 and 14 (docs/desktop-security.md): the
 * window never navigates away from the app or opens another window; a web
 * link opens in the system browser instead. Webviews are refused.
 */
export function confineWindow(
  contents: DesktopWebContents,
  shell: Pick<DesktopShell, 'openExternal'>,
  isAppPage: (url: string) => boolean,
): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (isAppPage(url)) return;
    event.preventDefault();
    if (isWebLink(url)) void shell.openExternal(url);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
