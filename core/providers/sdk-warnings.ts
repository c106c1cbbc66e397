import type { LanguageModelV3, SharedV3Warning } from '@ai-sdk/provider';

/**
 * The AI SDK's warnings (a setting the model does not take, a model whose
 * limits it does not know), kept on the call's step and said on stderr. The
 * SDK's own logger writes them with console.info and console.warn, which go
 * to stdout: in `flowbench mcp` that is the JSON-RPC channel, and with
 * `--json` the output a script parses.
 */

/** Flowbench's provider names by the SDK's provider id and model id (see nameModel). */
const names = new Map<string, string>();
const key = (provider: string, model: string) => `${provider}\u0000${model}`;

/** Remembers whose model client this is, so its warnings name the provider as the person set it. */
export function nameModel(model: LanguageModelV3, providerName: string): void {
  names.set(key(model.provider, model.modelId), providerName);
}

function describe(warning: SharedV3Warning): string {
  switch (warning.type) {
    case 'unsupported':
      return `${warning.feature} is not supported${warning.details ? `: ${warning.details}` : ''}`;
    case 'compatibility':
      return `${warning.feature} is used in a compatibility mode${warning.details ? `: ${warning.details}` : ''}`;
    case 'other':
      return warning.message;
    default:
      // A kind of warning a later SDK adds: said as it came, not dropped.
      return JSON.stringify(warning);
  }
}

/** A call's warnings as its step keeps them: described, each once. */
export function describeWarnings(warnings: readonly SharedV3Warning[]): string[] {
  return [...new Set(warnings.map(describe))];
}

/**
 * Says each warning on stderr, naming the provider and the model. The step
 * keeps them from the call's result (describeWarnings), not from here: which
 * of the calls running side by side said one would take an AsyncLocalStorage,
 * which once used slows every promise of the process (an async function's
 * call and await took 0.32 µs instead of 0.12 on Node 20 here).
 */
export function sayWarnings(options: { warnings: readonly SharedV3Warning[]; provider: string; model: string }): void {
  const who = names.get(key(options.provider, options.model)) ?? options.provider;
  for (const text of options.warnings.map(describe))
    process.stderr.write(`flowbench: ${who} (${options.model}): ${text}\n`);
}

/** The AI SDK's logging hook (its `AI_SDK_LOG_WARNINGS` global), taken by sayWarnings. */
export function routeSdkWarnings(): void {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = sayWarnings;
}
