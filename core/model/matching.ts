/**
 * Matching values as conditions and test-case expectations do: JSONPath
 * selection with nothing evaluated, and regular expressions on a
 * linear-time engine. One place, so both refuse and accept the same things.
 */

import { loadOnce } from './load-once';

/** Text holding JSON is tested as JSON, so `$.urgency` works on a model's JSON answer. */
function parseIfJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Selects a value's part with a JSONPath; script expressions are disabled, nothing is evaluated. */
export type PathSelect = (value: unknown, path: string) => unknown;

// Loaded on the first condition: the editor, which never evaluates one, does not carry the library (55 kB).
/** The JSONPath selector; `''` and `$` select the whole value. */
export const loadPathSelect: () => Promise<PathSelect> = loadOnce(() =>
  import('jsonpath-plus').then(({ JSONPath }) => (value, path) => {
    if (path === '' || path === '$') return value;
    const json = parseIfJson(value);
    if (json === null || typeof json !== 'object') return undefined;
    const selected: unknown = JSONPath({ path, json, wrap: false, eval: false });
    return selected;
  }),
);

/** Tests a text against a pattern; RE2's engine runs in time linear in the text, whatever the pattern. */
export type PatternTest = (pattern: string, text: string) => boolean;

// Loaded on the first `matches`: the editor, which never evaluates conditions, does not carry RE2.
/** The linear-time matcher (RE2). `(a+)+$` against "aaaa…!" cannot freeze a run, or the process. */
export const loadPatternTest: () => Promise<PatternTest> = loadOnce(() =>
  import('re2js').then(({ RE2JS }) => {
    const compiled = new Map<string, InstanceType<typeof RE2JS>>();
    return (pattern, text) => {
      let regex = compiled.get(pattern);
      if (!regex) {
        regex = RE2JS.compile(pattern);
        if (compiled.size > 200) compiled.clear();
        compiled.set(pattern, regex);
      }
      return regex.matcher(text).find();
    };
  }),
);

/**
 * Why a `matches` pattern cannot be used, or undefined when it can. RE2 has no
 * backreferences or lookaround (what makes a pattern's time explode), and a
 * pattern must be valid at all.
 */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    return `the pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${(error as Error).message}`;
  }
  if (/\\[1-9]|\\k<|\(\?<?[=!]/.test(pattern)) {
    return `the pattern ${JSON.stringify(pattern)} uses a backreference or lookaround, which the linear-time engine does not run`;
  }
  return undefined;
}

/** Why a JSONPath cannot be used, or undefined: filters and scripts are refused, nothing is ever evaluated. */
export function pathProblem(path: string): string | undefined {
  return /\?\s*\(|\(\s*@/.test(path)
    ? `the JSONPath ${JSON.stringify(path)} uses a filter or script expression; use a plain path such as $.a.b[0]`
    : undefined;
}
