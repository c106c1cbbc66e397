import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import {
  CODE_MEMORY_LIMIT_BYTES,
  CODE_TIME_LIMIT_MS,
  MAX_CODE_CONSOLE_LINE_CHARS,
  MAX_CODE_CONSOLE_LINES,
  MAX_CODE_RESULT_BYTES,
  MORE_CONSOLE_LINES,
  type CodePort,
} from '../model/code';
import { FlowbenchError } from '../model/errors';
import { cutText } from '../model/cut-text';
import { loadOnce } from '../model/load-once';

/** The QuickJS module, loaded at the first code node's run: flows without one never pay for it. */
const quickJs: () => Promise<QuickJSWASMModule> = loadOnce(() =>
  Promise.all([import('quickjs-emscripten-core'), import('@jitl/quickjs-wasmfile-release-sync')]).then(
    ([core, variant]) => core.newQuickJSWASMModuleFromVariant(variant.default),
  ),
);

/** The host function the sandbox's `console` writes through. */
const LOG = '__flowbenchLog';

/**
 * A `console` as browsers and Node have one (code pasted from either uses it
 * to see what it got): each call's arguments joined by spaces, strings as they
 * are, anything else as JSON. On the wrapper's first line, so the user's code
 * keeps its line numbers.
 */
const CONSOLE = `globalThis.console = (() => { const show = (v) => { if (typeof v === 'string') return v; try { return JSON.stringify(v) ?? String(v); } catch { return String(v); } }; const say = (level) => (...args) => ${LOG}(level, args.map(show).join(' ')); return { log: say('log'), info: say('info'), debug: say('debug'), warn: say('warn'), error: say('error') }; })();`;

/** The user's code as the body of a function of `values`; its result as JSON text (undefined as null). */
const wrap = (code: string, values: Record<string, unknown>) =>
  `${CONSOLE} JSON.stringify((function (values) {\n${code}\n})(JSON.parse(${JSON.stringify(JSON.stringify(values))}))) ?? 'null'`;

/** Passes each console line to `log`: warnings and errors say so, long lines are cut, past the limit one line says how many more. */
function consoleLines(log: ((line: string) => void) | undefined): (level: string, text: string) => void {
  let count = 0;
  return (level, text) => {
    count++;
    if (!log || count > MAX_CODE_CONSOLE_LINES + 1) return;
    if (count > MAX_CODE_CONSOLE_LINES) return log(MORE_CONSOLE_LINES);
    const line = level === 'warn' || level === 'error' ? `${level}: ${text}` : text;
    log(line.length > MAX_CODE_CONSOLE_LINE_CHARS ? `${cutText(line, MAX_CODE_CONSOLE_LINE_CHARS)}…` : line);
  };
}

/** The line of the user's code an error names (the wrapper's first line is not theirs). */
function lineOf(stack: unknown): string {
  const match = typeof stack === 'string' ? /code\.js:(\d+)/.exec(stack) : null;
  return match ? ` (line ${Number(match[1]) - 1})` : '';
}

/**
 * Runs a code node's code in a fresh QuickJS runtime (a WebAssembly build of
 * the engine): nothing of Node, the network or the files is in it, its memory
 * is capped, and an interrupt handler stops it at the time limit, since a
 * synchronous loop would never let a timer fire. Tests shorten the limit.
 */
export const quickJsSandbox = ({ timeLimitMs = CODE_TIME_LIMIT_MS } = {}): CodePort => ({
  async run({ nodeId, code, values, signal, log }) {
    const module = await quickJs();
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(CODE_MEMORY_LIMIT_BYTES);
    runtime.setMaxStackSize(1024 * 1024);
    const deadline = Date.now() + timeLimitMs;
    let timedOut = false;
    runtime.setInterruptHandler(() => {
      timedOut = Date.now() > deadline;
      return timedOut || signal.aborted;
    });
    const vm = runtime.newContext();
    try {
      const write = consoleLines(log);
      vm.newFunction(LOG, (level, text) => write(vm.getString(level), vm.getString(text))).consume((fn) =>
        vm.setProp(vm.global, LOG, fn),
      );
      const result = vm.evalCode(wrap(code, values), 'code.js');
      if (result.error) {
        const error = vm.dump(result.error) as { name?: string; message?: string; stack?: string } | string;
        result.error.dispose();
        if (timedOut) {
          throw new FlowbenchError(
            'CODE_TIMEOUT',
            `node "${nodeId}": the code ran longer than ${timeLimitMs / 1000} s and was stopped`,
            { nodeId },
          );
        }
        if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('cancelled');
        const text = typeof error === 'string' ? error : `${error.name ?? 'Error'}: ${error.message ?? ''}`;
        const where = typeof error === 'string' ? '' : lineOf(error.stack);
        throw new FlowbenchError('CODE_ERROR', `node "${nodeId}"${where}: ${text}`, { nodeId });
      }
      const json = vm.getString(result.value);
      result.value.dispose();
      if (json.length > MAX_CODE_RESULT_BYTES) {
        throw new FlowbenchError('CODE_ERROR', `node "${nodeId}": the code returned over 10 MB`, { nodeId });
      }
      return JSON.parse(json) as unknown;
    } finally {
      vm.dispose();
      runtime.dispose();
    }
  },
});

/** The sandbox runs use: CODE_TIME_LIMIT_MS, CODE_MEMORY_LIMIT_BYTES. */
export const quickJsCode = quickJsSandbox();
