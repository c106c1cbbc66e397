import { LITERAL_BRACES, parseTemplate } from '../model/template';
import type { ImportProblem } from './shared';

/**
 * n8n expressions (`={{ $json.topic }}`, `{{ $('Fetch').item.json.title }}`)
 * as Flowbench references. n8n evaluates JavaScript between the braces;
 * Flowbench evaluates nothing, so only reads of a node's data carry over
 * (`$json…`, `$input.item.json…`, `$('Name').item|first()|last().json…`,
 * `$node["Name"].json…`). Anything else is kept as it was written and said
 * as a problem with where it is: it would not compute what n8n computes.
 */

/** What an n8n node's item is in the imported flow, for the expressions that read it. */
export type N8nData =
  /** A trigger: the fields of its item are the flow's inputs. */
  | { kind: 'inputs' }
  /** The node's output is the item: its fields are the output's. */
  | { kind: 'object'; nodeId: string }
  /** n8n keeps the node's answer at `keys` (an agent's `output`, a chain's `text`); Flowbench's output is the answer. */
  | { kind: 'answer'; nodeId: string; keys: string[] }
  /** Nothing to read (why says so). */
  | { kind: 'none'; why: string };

export interface ExpressionScope {
  /** The data of the node whose output reaches this one (`$json`); undefined when nothing does. */
  input: N8nData | undefined;
  /** The data of the node of that name (`$('Name')`); undefined when there is none. */
  named: (name: string) => N8nData | undefined;
}

const ITEM = String.raw`(?:item|first\(\)|last\(\))`;
/** A quoted name, its quote the capture group `n`, the name the next one. */
const quoted = (n: number) => `(['"])((?:(?!\\${n}).)+)\\${n}`;
/** `$json`, `$input.item.json`, `$('Name').first().json` or `$node["Name"].json`, then the path read. */
const READ = new RegExp(
  String.raw`^(?:\$json|\$input\.${ITEM}\.json|\$\(\s*${quoted(1)}\s*\)\.${ITEM}\.json|\$node\[\s*${quoted(3)}\s*\]\.json)` +
    String.raw`((?:\s*\.\s*[A-Za-z_$][\w$]*|\s*\[\s*(?:\d+|'[^']*'|"[^"]*")\s*\])*)$`,
);
const PATH_STEP = /\.\s*([A-Za-z_$][\w$]*)|\[\s*(?:(\d+)|'([^']*)'|"([^"]*)")\s*\]/g;
/** What a Flowbench reference path may hold (core/model/template.ts). */
const SEGMENT = /^[A-Za-z0-9_-]+$/;

function pathOf(text: string): string[] {
  return [...text.matchAll(PATH_STEP)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
}

/** The Flowbench reference for one n8n expression (the text between its braces), or why there is none. */
export function referenceFor(expression: string, scope: ExpressionScope): { text: string } | { why: string } {
  const match = READ.exec(expression.trim());
  if (!match) {
    return {
      why: 'it computes in JavaScript, and Flowbench references only read values: write what it computes as a reference, or compute it in a Code node',
    };
  }
  const name = match[2] ?? match[4];
  const data = name === undefined ? scope.input : scope.named(name);
  if (!data) return { why: name === undefined ? 'nothing comes into this node to read' : `there is no node "${name}"` };
  const path = pathOf(match[5] ?? '');
  const bad = path.find((step) => !SEGMENT.test(step));
  if (bad !== undefined)
    return { why: `a Flowbench reference names fields of letters, digits, _ and - only, not "${bad}"` };
  const reference = (base: string, rest: string[]) => ({ text: `{{${[base, ...rest].join('.')}}}` });
  switch (data.kind) {
    case 'none':
      return { why: data.why };
    case 'inputs': {
      const [input, ...rest] = path;
      if (input === undefined)
        return { why: "it reads the trigger's whole item; a Flowbench reference reads one input" };
      return reference(`inputs.${input}`, rest);
    }
    case 'object':
      return reference(`nodes.${data.nodeId}.output`, path);
    case 'answer': {
      const at = data.keys.join('.');
      if (data.keys.some((key, i) => path[i] !== key))
        return {
          why: `this node's answer is read as .${at} (${path.length === 0 ? 'the whole item' : `.${path.join('.')}`} is not carried over)`,
        };
      return reference(`nodes.${data.nodeId}.output`, path.slice(data.keys.length));
    }
  }
}

const BRACES = /\{\{([\s\S]*?)\}\}/g;

/**
 * An n8n parameter's value as a Flowbench template: a fixed value as it is,
 * an expression (`=` then text with `{{ … }}`) with each read rewritten and
 * each other expression kept, said in `problems` at `source`.
 */
export function templateFrom(
  value: unknown,
  scope: ExpressionScope,
  at: { source: string; nodeId?: string },
  problems: ImportProblem[],
): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return literalText(JSON.stringify(value));
  if (!value.startsWith('=')) return literalText(value);
  return value.slice(1).replace(BRACES, (whole, expression: string) => {
    const found = referenceFor(expression, scope);
    if ('text' in found) return found.text;
    problems.push({
      code: 'IMPORT_PROBLEM',
      source: at.source,
      ...(at.nodeId !== undefined ? { nodeId: at.nodeId } : {}),
      message: `the n8n expression ${whole.trim()} is kept as written: ${found.why}`,
    });
    return whole;
  });
}

/**
 * n8n's fixed text (not an expression) as a template. n8n sends it as it is,
 * `{{ … }}` and all (a GitHub workflow's `${{ secrets.TOKEN }}` in a file it
 * writes); Flowbench would read such a tag as a reference and send its value
 * instead (or refuse the flow: a secret outside an HTTP request node), or
 * refuse one that is no reference. Each tag's `{{` is written `{{ "{{" }}`,
 * which renders as `{{`: the text goes out as n8n sends it.
 */
function literalText(value: string): string {
  const tags = parseTemplate(value).filter((segment) => segment.kind !== 'text');
  let text = value;
  for (const tag of tags.reverse()) text = `${text.slice(0, tag.start)}${LITERAL_BRACES}${text.slice(tag.start + 2)}`;
  return text;
}

/** Whether a parameter's value is an n8n expression (evaluated by n8n, not a fixed value). */
export const isExpression = (value: unknown): boolean => typeof value === 'string' && value.startsWith('=');
