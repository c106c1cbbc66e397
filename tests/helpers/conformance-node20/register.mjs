// Loaded with `node --import` before the MCP conformance suite. The suite's
// builds since 0.1.14 import fs.globSync (Node 22) at load time, which stops
// them on Node 20 before any scenario runs; the server scenarios never call
// it (only result aggregation does). This hook gives the suite's modules an
// `fs` that has the name, and says so if anything does call it.
import { register } from 'node:module';

register(new URL('./hooks.mjs', import.meta.url));
