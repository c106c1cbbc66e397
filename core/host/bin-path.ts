import { fileURLToPath } from 'node:url';

/** Absolute path of `bin/flowbench`, for configuration snippets that other programs run. */
export const BIN_PATH = fileURLToPath(new URL('../../bin/flowbench', import.meta.url));
