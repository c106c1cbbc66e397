import type { Flow } from '../model/flow';

/** One node or sticky note the words were found in, and where. */
export interface FindMatch {
  kind: 'node' | 'note';
  id: string;
  /** Where: `label`, `id`, `type`, a config field's path (`template`, `returnValues.0.text`), or a note's `text`. */
  field: string;
  /** The words with some of the text around them, on one line. */
  excerpt: string;
}

/** How Find matches the words, as a code editor's Find does; ignoring case and inside words by default. */
export interface FindOptions {
  /** Only text with the same capitals (Aa). */
  matchCase?: boolean;
  /** Only where the words stand alone, not inside a longer word (ab|). */
  wholeWord?: boolean;
  /** The words are a regular expression (.*), JavaScript's, as in VS Code. */
  regex?: boolean;
}

/** How much text is shown on each side of the words found. */
const CONTEXT = 30;
/** Config fields deeper than this are not searched (a pasted JSON schema is not where a person looks). */
const MAX_DEPTH = 6;

/** A letter, digit or underscore: what a word is made of, in any script. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Lookarounds that keep a match from starting or ending inside a longer word. */
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{N}_])';
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{N}_])';

/**
 * The words as a pattern, as the options say; undefined for blank words.
 * Words as typed are trimmed and matched literally, and whole word checks
 * only their ends that are word characters, so `{{inputs` still finds
 * `{{inputs.topic}}`. A regular expression is taken as typed, and throws a
 * SyntaxError when it is not valid (see `patternProblem`). Global: a caller
 * reusing it for `exec` starts from `lastIndex` 0 (see `locate`).
 */
export function findPattern(query: string, options: FindOptions = {}): RegExp | undefined {
  const words = options.regex ? query : query.trim();
  if (!words.trim()) return undefined;
  const flags = options.matchCase ? 'gu' : 'giu';
  if (options.regex) {
    return new RegExp(options.wholeWord ? `${NOT_AFTER_WORD}(?:${words})${NOT_BEFORE_WORD}` : words, flags);
  }
  let source = escapeRegExp(words);
  if (options.wholeWord) {
    if (WORD_CHAR.test(words[0] ?? '')) source = `${NOT_AFTER_WORD}${source}`;
    if (WORD_CHAR.test(words.at(-1) ?? '')) source = `${source}${NOT_BEFORE_WORD}`;
  }
  return new RegExp(source, flags);
}

/** Why the words cannot be looked for (a regular expression that is not valid), in words; else undefined. */
export function patternProblem(query: string, options: FindOptions = {}): string | undefined {
  try {
    findPattern(query, options);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Where the pattern first matches in the text, and how long the match is.
 * Empty matches (`a*` before any `a`) do not count: they find nothing to show.
 */
export function locate(text: string, pattern: RegExp): { at: number; length: number } | undefined {
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    if (found[0].length > 0) return { at: found.index, length: found[0].length };
    pattern.lastIndex = found.index + 1;
  }
  return undefined;
}

/**
 * The nodes and notes of a flow whose words contain `query` (ignoring case
 * unless `options` say otherwise),
 * as a person looks for them on a big canvas: by label first, then id, node
 * type, the text of the node's settings (prompts, conditions, return values),
 * and what notes say. Each node or note is found once, at its best field;
 * those found at the same kind of field are listed top to bottom, then left
 * to right, so going through them moves across the canvas in reading order.
 */
export function findInFlow(
  flow: Flow,
  query: string,
  typeLabel: (type: string) => string,
  options: FindOptions = {},
): FindMatch[] {
  const wanted = findPattern(query, options);
  if (!wanted) return [];
  const found: { match: FindMatch; rank: number; x: number; y: number }[] = [];
  for (const node of flow.nodes) {
    const fields: [string, string][] = [
      ['label', node.label ?? ''],
      ['id', node.id],
      ['type', typeLabel(node.type)],
      ...textFields(node.config, '', 0),
    ];
    const best = firstMatch(fields, wanted);
    if (best) found.push({ match: { kind: 'node', id: node.id, ...best.match }, rank: best.rank, ...node.position });
  }
  for (const note of flow.notes) {
    const best = firstMatch([['text', note.text]], wanted);
    // A note's words rank after every node's: what is found is mostly looked for as a step.
    if (best) found.push({ match: { kind: 'note', id: note.id, ...best.match }, rank: 99, ...note.position });
  }
  return found.sort((a, b) => a.rank - b.rank || a.y - b.y || a.x - b.x).map((f) => f.match);
}

/** The first field (in the order given) that holds the words, with its rank (its place in that order). */
function firstMatch(
  fields: readonly [string, string][],
  wanted: RegExp,
): { match: { field: string; excerpt: string }; rank: number } | undefined {
  for (const [rank, [field, text]] of fields.entries()) {
    const found = locate(text, wanted);
    // Label, id, type, then every setting alike.
    if (found) return { match: { field, excerpt: excerpt(text, found.at, found.length) }, rank: Math.min(rank, 3) };
  }
  return undefined;
}

/** Every string in a node's config, with its path; numbers and flags are not text a person searches. */
export function textFields(value: unknown, path = '', depth = 0): [string, string][] {
  if (typeof value === 'string') return path ? [[path, value]] : [];
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => textFields(inner, path ? `${path}.${key}` : key, depth + 1));
}

/** The words found with up to CONTEXT characters each side, on one line, an ellipsis where cut. */
function excerpt(text: string, at: number, length: number): string {
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(text.length, at + length + CONTEXT);
  const line = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${line}${end < text.length ? '…' : ''}`;
}
