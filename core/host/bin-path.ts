import { fileURLToPath } from 'node:url';
import { unpackedPath } from '../model/unpacked-path';

/**
 * Absolute path of `bin/flowbench`, for configuration snippets that other
 * programs run. In a packaged app it lies unpacked beside the archive
 * (electron-builder.yml's asarUnpack): an MCP client starts it as a plain file.
 */
export const BIN_PATH = unpackedPath(fileURLToPath(new URL('../../bin/flowbench', import.meta.url)));
