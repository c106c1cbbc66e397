/**
 * Template references: `{{inputs.name}}`, `{{nodes.<id>.output.a.b}}`,
 * `{{item.a}}` in a node that runs for each item of a list, and
 * `{{secrets.name}}` (a value kept in the secret vault) in the fields of an
 * HTTP request node. `{{ "…" }}` is the quoted text itself, as Jinja's
 * `{{ '{{' }}`: the way to write a `{{` that is no reference.
 * Parsing and rendering only substitute values; nothing is ever evaluated.
 */

export type Reference =
  | { scope: 'inputs'; name: string; path: string[] }
  | { scope: 'nodes'; nodeId: string; field: 'output' | 'error'; path: string[] }
  | { scope: 'item'; path: string[] }
  /** A secret is text: it has no path (`path` is always empty, so every reference reads the same). */
  | { scope: 'secrets'; name: string; path: [] };

export type TemplateSegment =
  | { kind: 'text'; text: string }
  | { kind: 'ref'; raw: string; start: number; end: number; ref: Reference }
  /** `{{ "{{" }}`: the quoted text (a JSON string), rendered as it is. */
  | { kind: 'literal'; raw: string; start: number; end: number; text: string }
  | { kind: 'invalid'; raw: string; start: number; end: number; reason: string };

/** A tag: quoted text (which may hold braces), or a reference (which may not). */
const TAG = /\{\{\s*(?:("(?:[^"\\\n]|\\.)*")|([^{}]*?))\s*\}\}/g;

/** How to write `{{` as text, as problems about a tag that is no reference say. */
export const LITERAL_BRACES = '{{ "{{" }}';
const KEEP_AS_TEXT = ` (to keep {{ as text, write ${LITERAL_BRACES})`;

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** Splits `a.b[0].c` into `['a', 'b', '0', 'c']`; returns undefined when malformed. */
function splitPath(expression: string): string[] | undefined {
  const parts = expression.replace(/\[(\d+)\]/g, '.$1').split('.');
  return parts.every((p) => SEGMENT.test(p)) ? parts : undefined;
}

/** Parses one reference expression (the text between the braces). */
export function parseReference(expression: string): Reference | { error: string } {
  const parts = splitPath(expression.trim());
  if (!parts) return { error: `"${expression}" is not a reference path${KEEP_AS_TEXT}` };
  const [scope, ...rest] = parts;
  if (scope === 'inputs') {
    const [name, ...path] = rest;
    if (name === undefined) return { error: 'name the input: {{inputs.<name>}}' };
    return { scope: 'inputs', name, path };
  }
  if (scope === 'nodes') {
    const [nodeId, field, ...path] = rest;
    if (nodeId === undefined) return { error: 'name the node: {{nodes.<id>.output}}' };
    if (field !== 'output' && field !== 'error') {
      return { error: `use {{nodes.${nodeId}.output}} or {{nodes.${nodeId}.error}}` };
    }
    return { scope: 'nodes', nodeId, field, path };
  }
  if (scope === 'item') return { scope: 'item', path: rest };
  if (scope === 'secrets') {
    const [name, ...path] = rest;
    if (name === undefined) return { error: 'name the secret: {{secrets.<name>}}' };
    if (path.length > 0) return { error: `a secret is text, with nothing inside it: write {{secrets.${name}}}` };
    return { scope: 'secrets', name, path: [] };
  }
  return { error: `"${expression}" must start with inputs., nodes., item or secrets.${KEEP_AS_TEXT}` };
}

// Templates are parsed on every run of their node; flows reuse few distinct texts.
const parsed = new Map<string, TemplateSegment[]>();
const MAX_CACHED_TEMPLATES = 2000;

/** Splits a template into literal text and references, keeping positions for editors. Do not mutate the result. */
export function parseTemplate(template: string): TemplateSegment[] {
  let segments = parsed.get(template);
  if (!segments) {
    segments = parseUncached(template);
    if (parsed.size >= MAX_CACHED_TEMPLATES) parsed.clear();
    parsed.set(template, segments);
  }
  return segments;
}

function parseUncached(template: string): TemplateSegment[] {
  const segments: TemplateSegment[] = [];
  let last = 0;
  for (const match of template.matchAll(TAG)) {
    const [raw, quoted, expression] = match;
    const start = match.index;
    const end = start + raw.length;
    if (start > last) segments.push({ kind: 'text', text: template.slice(last, start) });
    if (quoted !== undefined) {
      const text = quotedText(quoted);
      segments.push(
        text === undefined
          ? {
              kind: 'invalid',
              raw,
              start,
              end,
              reason: `${quoted} is not quoted text: write it as JSON writes a string`,
            }
          : { kind: 'literal', raw, start, end, text },
      );
    } else {
      const parsed = parseReference(expression ?? '');
      segments.push(
        'error' in parsed
          ? { kind: 'invalid', raw, start, end, reason: parsed.error }
          : { kind: 'ref', raw, start, end, ref: parsed },
      );
    }
    last = end;
  }
  if (last < template.length) segments.push({ kind: 'text', text: template.slice(last) });
  return segments;
}

/** A JSON string's text; undefined when it is no valid JSON string (`"\\q"`). */
function quotedText(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

/** The references a template uses, in order of appearance. */
export function templateReferences(template: string): Reference[] {
  return parseTemplate(template).flatMap((s) => (s.kind === 'ref' ? [s.ref] : []));
}

/**
 * Reads a dotted path out of a JSON value; undefined when any step is missing.
 * Only what the value has of its own: `output.constructor` rendered the text
 * "undefined" (Object's function), and `output.__proto__` "{}".
 */
export function readPath(value: unknown, path: readonly string[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** How a value appears inside text: strings as they are, the rest as JSON, nothing as ''. */
export function stringifyValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

// A run notes each reference it resolves under this text; parsed references are shared and never change.
const formatted = new WeakMap<Reference, string>();

/** A reference as written between the braces: `nodes.a.output.x`. */
export function formatReference(ref: Reference): string {
  let text = formatted.get(ref);
  if (text === undefined) {
    const head =
      ref.scope === 'inputs' || ref.scope === 'secrets'
        ? `${ref.scope}.${ref.name}`
        : ref.scope === 'item'
          ? 'item'
          : `nodes.${ref.nodeId}.${ref.field}`;
    text = [head, ...ref.path].join('.');
    formatted.set(ref, text);
  }
  return text;
}

/**
 * Points references at renamed nodes: `{{nodes.a.output.x}}` becomes
 * `{{nodes.b.output.x}}` when `renamed` maps a to b. Uses the same parser as
 * rendering, so any spelling it accepts (`{{ nodes.a.output }}`) is renamed;
 * other text is left exactly as it was.
 */
export function renameReferences(template: string, renamed: ReadonlyMap<string, string>): string {
  let result = '';
  let last = 0;
  for (const segment of parseTemplate(template)) {
    if (segment.kind !== 'ref' || segment.ref.scope !== 'nodes') continue;
    const to = renamed.get(segment.ref.nodeId);
    if (to === undefined) continue;
    result += `${template.slice(last, segment.start)}{{${formatReference({ ...segment.ref, nodeId: to })}}}`;
    last = segment.end;
  }
  return last === 0 ? template : result + template.slice(last);
}
