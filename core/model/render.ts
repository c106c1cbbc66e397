import type { StepError } from './run';
import { parseTemplate, readPath, stringifyValue, type Reference } from './template';

/** What a reference can see while a flow runs. */
export interface RenderScope {
  inputs: Readonly<Record<string, unknown>>;
  /** The output of a finished node, or its error; undefined for skipped or unknown nodes. */
  node(nodeId: string): { output?: unknown; error?: StepError } | undefined;
}

/** Text that holds a JSON object or array is read as JSON when a path goes into it. */
function asJson(value: unknown): unknown {
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
  if (ref.scope === 'inputs') {
    const value = scope.inputs[ref.name];
    return ref.path.length === 0 ? value : readPath(asJson(value), ref.path);
  }
  const node = scope.node(ref.nodeId);
  const value = ref.field === 'output' ? node?.output : node?.error;
  return ref.path.length === 0 ? value : readPath(asJson(value), ref.path);
}

/** Renders a template to text: strings as they are, other values as JSON, nothing as ''. */
export function renderTemplate(template: string, scope: RenderScope): string {
  let text = '';
  for (const segment of parseTemplate(template)) {
    if (segment.kind === 'text') text += segment.text;
    else if (segment.kind === 'invalid') text += segment.raw;
    else text += stringifyValue(resolveReference(segment.ref, scope));
  }
  return text;
}

/**
 * Like renderTemplate, but a template that is one reference alone yields the
 * referenced value itself (an object stays an object; a skipped node gives null).
 */
export function resolveTemplateValue(template: string, scope: RenderScope): unknown {
  const segments = parseTemplate(template.trim());
  if (segments.length === 1 && segments[0]?.kind === 'ref') {
    return resolveReference(segments[0].ref, scope) ?? null;
  }
  return renderTemplate(template, scope);
}
