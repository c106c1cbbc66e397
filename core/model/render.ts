import type { StepError } from './run';
import { HIDDEN } from './secrets';
import { formatReference, parseTemplate, readPath, stringifyValue, type Reference } from './template';

/** What a reference can see while a flow runs. */
export interface RenderScope {
  inputs: Readonly<Record<string, unknown>>;
  /** The output of a finished node, or its error; undefined for skipped or unknown nodes. */
  node(nodeId: string): { output?: unknown; error?: StepError } | undefined;
  /** The item of a node that runs for each item of a list (`{{item}}`). */
  item?: unknown;
  /** A secret the run read before it started (`{{secrets.name}}`); undefined for any other. */
  secret?(name: string): string | undefined;
}

/** Text that holds a JSON object or array is read as JSON when a path goes into it. */
export function asJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return value;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value;
  }
}

/** The value a reference points at; undefined (rendered empty) for skipped nodes and missing paths. */
export function resolveReference(ref: Reference, scope: RenderScope): unknown {
  let value: unknown;
  if (ref.scope === 'inputs') value = Object.hasOwn(scope.inputs, ref.name) ? scope.inputs[ref.name] : undefined;
  else if (ref.scope === 'item') value = scope.item;
  else if (ref.scope === 'secrets') value = scope.secret?.(ref.name);
  else {
    const node = scope.node(ref.nodeId);
    value = ref.field === 'output' ? node?.output : node?.error;
  }
  return ref.path.length === 0 ? value : readPath(asJson(value), ref.path);
}

/**
 * The values a run's templates used, by reference (`nodes.a.output.x`): a
 * step's "resolved input". Missing values are recorded as null.
 */
export type UsedValues = Record<string, unknown>;

/** The value a reference points at, noted in `used` when given (a secret as •••). */
function lookUp(ref: Reference, scope: RenderScope, used: UsedValues | undefined): unknown {
  const value = resolveReference(ref, scope);
  if (used) used[formatReference(ref)] = ref.scope === 'secrets' ? HIDDEN : (value ?? null);
  return value;
}

/**
 * Renders a template to text: strings as they are, other values as JSON,
 * nothing as ''. Each value it uses is noted in `used`, when given.
 */
export function renderTemplate(template: string, scope: RenderScope, used?: UsedValues): string {
  let text = '';
  for (const segment of parseTemplate(template)) {
    if (segment.kind === 'text' || segment.kind === 'literal') text += segment.text;
    else if (segment.kind === 'invalid') text += segment.raw;
    else text += stringifyValue(lookUp(segment.ref, scope, used));
  }
  return text;
}

/**
 * Like renderTemplate, but a template that is one reference alone yields the
 * referenced value itself (an object stays an object; a skipped node gives null).
 */
export function resolveTemplateValue(template: string, scope: RenderScope, used?: UsedValues): unknown {
  const segments = parseTemplate(template.trim());
  if (segments.length === 1 && segments[0]?.kind === 'ref') {
    return lookUp(segments[0].ref, scope, used) ?? null;
  }
  return renderTemplate(template, scope, used);
}
