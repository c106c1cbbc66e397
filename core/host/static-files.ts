import { createReadStream, existsSync, statSync } from 'node:fs';
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
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': isHashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  // A file removed between the check and the read ends this response, not the server.
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}
