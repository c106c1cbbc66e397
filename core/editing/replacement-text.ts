/**
 * What one match becomes when Replace puts its replacement in: the groups of
 * a regular expression filled in (`substitute`), the capitals of the text
 * replaced kept (`withCaseOf`).
 */

/** The separators inside a word whose parts keep their own capitals (`snake_case`, `kebab-case`). */
const SEPARATORS = ['-', '_'] as const;

/**
 * The replacement with the capitals of the text it replaces, as VS Code's
 * "preserve case" does:
 * - all capitals → all capitals (`TICKET` → `REQUEST`);
 * - all small letters → all small;
 * - otherwise the first letter's case (`Ticket` → `Request`, `ticketLog` → `requestLog`);
 * - split at `-` or `_` when both have the same number of parts, each part so
 *   (`Ticket_Log` → `Request_File` from `request_file`).
 * Text without letters (`42`) gets the replacement as typed.
 */
export function withCaseOf(found: string, replacement: string): string {
  const separator = SEPARATORS.filter(
    (one) => found.includes(one) && replacement.split(one).length === found.split(one).length,
  );
  // Both kinds at once (`a-b_c`): which parts go together is not clear, so the word is taken whole.
  if (separator.length === 1) {
    const [one] = separator as [string];
    const parts = found.split(one);
    return replacement
      .split(one)
      .map((part, i) => withCaseOf(parts[i] ?? '', part))
      .join(one);
  }
  const upper = found.toUpperCase();
  const lower = found.toLowerCase();
  if (upper === lower || replacement === '') return replacement;
  if (found === upper) return replacement.toUpperCase();
  if (found === lower) return replacement.toLowerCase();
  const first = found.charAt(0);
  if (first !== first.toLowerCase()) return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  if (first !== first.toUpperCase()) return replacement.charAt(0).toLowerCase() + replacement.slice(1);
  return replacement;
}

/** One match, from the arguments `String.replace` gives its callback. */
export interface ReplaceMatch {
  /** The text matched. */
  text: string;
  /** Where it starts in the text searched. */
  offset: number;
  /** The whole match, then each group in order (undefined where a group matched nothing). */
  groups: readonly (string | undefined)[];
  /** Named groups, when the expression has any. */
  named?: Readonly<Record<string, string | undefined>>;
}

/** The match `String.replace` describes to its callback: the match, each group, the offset, the whole text, then named groups if any. */
export function matchOf(args: readonly unknown[]): ReplaceMatch {
  const last = args.at(-1);
  const named = typeof last === 'object' && last !== null ? (last as Record<string, string | undefined>) : undefined;
  const offsetAt = args.length - (named ? 3 : 2);
  return {
    text: String(args[0]),
    offset: args[offsetAt] as number,
    groups: args.slice(0, offsetAt) as (string | undefined)[],
    ...(named ? { named } : {}),
  };
}

/** `\n`, `\t` and `\\` in a replacement, as VS Code inserts them. */
const ESCAPED: Readonly<Record<string, string>> = { n: '\n', t: '\t', '\\': '\\' };

/**
 * A group's text with VS Code's case changes applied, one character each in
 * turn: `u` and `l` change one and go on to the next change, `U` and `L` every
 * one left (`\u\L` on `hELLO` gives `Hello`).
 */
function changeCase(text: string, changes: readonly string[]): string {
  let out = '';
  let change = 0;
  let at = 0;
  // By code point, so that a letter outside the BMP is changed whole (and `ß` may become `SS`).
  for (const char of text) {
    const op = changes[change];
    if (op === undefined) return out + text.slice(at);
    out += op === 'u' || op === 'U' ? char.toUpperCase() : char.toLowerCase();
    at += char.length;
    if (op === 'u' || op === 'l') change++;
  }
  return out;
}

/**
 * The replacement with what a regular expression's match holds filled in, as
 * VS Code fills it in (JavaScript's `$` forms, and more): `$1`…`$99` the
 * groups, `$0` and `$&` the whole match, `$<name>` a named group, `$$` a
 * dollar sign; `\n` a line break, `\t` a tab, `\\` a backslash; `\u` and
 * `\l` make the next group's first letter a capital or small one, `\U` and
 * `\L` all of it (`\u$1`, `\U$2`, `\u\L$1`). Anything else stays as typed.
 */
export function substitute(replacement: string, match: ReplaceMatch): string {
  const { groups, named } = match;
  const count = groups.length - 1;
  const group = (n: number) => groups[n] ?? '';
  // Case changes wait for the next group filled in, past any text between, as in VS Code.
  let changes: string[] = [];
  const filled = (text: string) => {
    const changed = changes.length > 0 ? changeCase(text, changes) : text;
    changes = [];
    return changed;
  };
  return replacement.replace(
    /\\([\\nt])|\\([uUlL])|\$(\$|&|<([^>]*)>|\d{1,2})/g,
    (token, escaped: string | undefined, change: string | undefined, what: string | undefined, name?: string) => {
      if (escaped !== undefined) return ESCAPED[escaped] ?? token;
      if (change !== undefined) {
        changes.push(change);
        return '';
      }
      if (what === '$') return '$';
      if (what === '&') return filled(group(0));
      if (name !== undefined) return named && name in named ? filled(named[name] ?? '') : token;
      // Two digits name a group when there are that many; else the first does, and the second is text.
      if (Number(what) <= count) return filled(group(Number(what)));
      if (what?.length === 2 && Number(what[0]) <= count) return filled(group(Number(what[0]))) + what.slice(1);
      return token;
    },
  );
}
