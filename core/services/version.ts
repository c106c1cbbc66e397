import { readFileSync } from 'node:fs';

/** Flowbench's version, from package.json. */
export const FLOWBENCH_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
