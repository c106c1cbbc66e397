import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build:renderer` (run by `npm ci`) puts the renderer. */
export const RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function hasRenderer(dir = RENDERER_DIR): boolean {
  return existsSync(join(dir, 'index.html'));
}

/** The page's policy, as index.html states it for the desktop app, which loads the file itself. */
const POLICY_META = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>\s*/i;

/**
 * A page with its Content-Security-Policy meta tag sent as a header instead.
 * A header covers the page from its first byte, and Chromium's preload scanner
 * asks for the scripts at once: with the meta tag it asked about 12 ms later,
 * on the way to every editor opening.
 */
function pageWithPolicyHeader(file: string): { body: string; policy?: string } {
  const html = readFileSync(file, 'utf8');
  const policy = POLICY_META.exec(html)?.[1];
  return policy ? { body: html.replace(POLICY_META, ''), policy } : { body: html };
}

/** Serves a file of the renderer build; paths outside the folder are refused. */
export function serveStatic(urlPath: string, res: ServerResponse, dir = RENDERER_DIR): void {
  let relative: string;
  try {
    relative = urlPath === '/' ? 'index.html' : decodeURIComponent(urlPath.slice(1));
  } catch {
    // `%ff` and other escapes that are no UTF-8: no file has such a name.
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end('Bad request: the path is not valid percent-encoded UTF-8\n');
    return;
  }
  const file = normalize(join(dir, relative));
  if (relative.includes('\0') || !file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found\n');
    return;
  }
  const isHashed = relative.startsWith('assets/');
  const headers = {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': isHashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  };
  if (extname(file) === '.html') {
    const page = pageWithPolicyHeader(file);
    res.writeHead(200, page.policy ? { ...headers, 'content-security-policy': page.policy } : headers);
    res.end(page.body);
    return;
  }
  res.writeHead(200, headers);
  // A file removed between the check and the read ends this response, not the server.
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
