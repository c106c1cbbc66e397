import { fileURLToPath } from 'node:url';

/**
 * Absolute path of `bin/flowbench`, for configuration snippets that other
 * programs run. In a packaged app it lies unpacked beside the archive
 * (electron-builder.yml's asarUnpack): an MCP client starts it as a plain file.
 */
export const BIN_PATH = fileURLToPath(new URL('../../bin/flowbench', import.meta.url)).replace(
  /app\.asar([\\/])/,
  'app.asar.unpacked$1',
);
