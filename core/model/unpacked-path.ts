/**
 * The real file of a path inside a packaged app's archive. electron-builder.yml
 * unpacks the files other processes run (bin/, out/cli/, out/worker/) beside
 * `app.asar`, in `app.asar.unpacked`; a program that is not Electron (an MCP
 * client starting bin/flowbench), or a loader that reads the disk directly (a
 * worker thread's), finds them only there. Outside a package it changes nothing.
 */
export function unpackedPath(path: string): string {
  return path.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
}
