import { z } from 'zod';

/**
 * zod compiles a parser of its own for each object schema (`new Function`),
 * at its first parse: worth it where the same schemas parse many times a
 * second, for nothing in a command that parses each a few times and exits.
 * V8 keeps no compiled code of such functions between launches (the CLI's
 * code cache holds the script's only), so every `flowbench run` compiled the
 * parsers of the flow's schema, the settings' and the AI SDK's again (13 for
 * a one-template flow). Without them, that run took 172–176 ms from spawn to
 * exit at best instead of 182–183 (25 launches each way, alternating, twice);
 * a 3×3 flow's model run moved by −3 to +2 ms (four rounds of 20 each way),
 * within this machine's noise. The long-lived servers keep them: `flowbench
 * mcp` and `serve` parse the same MCP messages at every call.
 *
 * zod reads the setting as each schema is made, most when their modules load:
 * main.ts imports this module first.
 */
const LONG_LIVED = new Set(['mcp', 'serve']);

/**
 * Any argument naming one of them counts: a flow called `mcp` keeps zod's
 * parsers too, which is only the slower start every command had before.
 * (bin/run-built.mjs's commandOf reads the command exactly, but it is plain
 * JavaScript outside the build, run before this.)
 */
const compilesParsers = (argv: readonly string[]): boolean => argv.some((arg) => LONG_LIVED.has(arg));

if (!compilesParsers(process.argv.slice(2))) z.config({ jitless: true });
