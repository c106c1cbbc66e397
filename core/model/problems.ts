/**
 * Validation problems: everything wrong with a flow, reported at once so the
 * editor can mark every node and the CLI can list every line.
 */

export const PROBLEM_CODES = {
  INVALID_FLOW: 'a field of the flow itself is missing or malformed',
  INVALID_TOOL_NAME: 'the tool name does not match ^[A-Za-z0-9_.-]{1,128}$',
  DUPLICATE_TOOL_NAME: 'another flow already uses this tool name',
  INVALID_PARAMETER: 'a parameter is malformed (name, type, default or enum)',
  DUPLICATE_PARAMETER: 'two parameters share a name',
  DUPLICATE_NODE_ID: 'two nodes share an id',
  DUPLICATE_EDGE_ID: 'two edges share an id',
  UNKNOWN_NODE_TYPE: 'a node has a type Flowbench does not know',
  INVALID_CONFIG: "a node's configuration breaks its type's schema",
  NODE_SETUP:
    "a node's settings fit its schema but it cannot run with them yet: an enum answer with no options, a pattern RE2 cannot run, a JSONPath filter, a view beside return values, an argument, input or tool row not named yet",
  DANGLING_EDGE: 'an edge starts or ends at a node that does not exist',
  UNKNOWN_PORT: 'an edge uses a port its node does not have',
  DUPLICATE_EDGE: 'two edges join the same ports',
  CIRCULAR_DEPENDENCY: 'the edges form a cycle that no loop edge marks',
  LOOP_NOT_BACK: 'a loop edge does not go back to a node that leads to its source',
  LOOP_CONFLICT: 'a node starts two loop edges, or two loops overlap without nesting',
  UNREACHABLE_NODE: 'a node is not connected to the input node, so it never runs',
  UNRESOLVED_REFERENCE: 'a template reference points at nothing the node can see',
  IMPORT_PROBLEM: 'something an importer could not carry over; fix it, then dismiss it',
  UNRESOLVED_AGENT: 'a step names an agent version Flowbench cannot resolve; choose a provider and model',
  MISSING_OUTPUT: 'the flow has no output node',
  MULTIPLE_INPUTS: 'the flow has more than one input node',
  INVALID_TEST_CASE: 'a test case has an expectation that cannot be checked (a bad pattern or JSONPath)',
  MISSING_TOOL: 'an MCP tool node names no tool',
  MISSING_FLOW: 'a flow node names no flow to call',
  SUBFLOW_CYCLE: 'a flow node calls a flow that calls this one back, directly or through others',
  SUBFLOW_NOT_PUBLISHED: 'a flow node (or an agent tool) calls a flow that has no published version, so it cannot run',
  SUBFLOW_INPUTS: 'a flow node leaves out an input the called flow requires, or gives one it does not take',
  AGENT_NEEDS_REVIEW:
    'an import created a library agent for an agent version Flowbench did not know; review its provider, model and prompt, then mark it reviewed',
  UNKNOWN_AGENT: 'a node names an agent version the library does not have',
  TEMPLATE_NOT_FOUND: 'a template node has no text and names a saved FlowyPrompt template Flowbench does not have',
  EMPTY_QUESTION: 'an ask node has no question to put to the person',
  EMPTY_PROMPT: 'an LLM or agent node has neither a prompt nor a system prompt, so the model is sent nothing',
  DEACTIVATED_NODE:
    'a node is deactivated: runs pass over it and hand on what came into it (an input or output node cannot be)',
  FOR_EACH: 'a node runs for each item of a list but its type cannot, or {{item}} is used where there is no item',
  SECRET_REFERENCE:
    "{{secrets.name}} is read outside an HTTP request node's URL, headers and body, where it would reach a model, a tool or the run's output",
  HTTP_QUERY:
    "a reference in an HTTP request node's URL query is sent as its value is, not encoded (a value with &, # or a space changes the URL); Query parameters encode it",
  HTTP_BODY:
    'an HTTP request node holds a body it does not send: text or form fields with GET, text beside a form body, or form fields beside a text one',
  TYPED_SECRET:
    "an HTTP request node's Basic auth password, or a header named like a key or token, is typed as it is: the flow and its exported file hold it; {{secrets.name}} keeps only the name",
  SECRET_NOT_SET: 'a node reads {{secrets.name}} and no secret of that name is set here, so runs will not start',
  PINNED_OUTPUT:
    "a node's output is pinned: runs a person starts take it instead of running the node; clients' calls run it (an input or output node cannot be pinned)",
} as const;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export interface Problem {
  code: ProblemCode;
  severity: 'error' | 'warning';
  message: string;
  nodeId?: string;
  edgeId?: string;
  /** Dotted path of the field inside the flow, node config or parameter. */
  field?: string;
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}

/**
 * How a note an importer left in `flow.metadata.importProblems` reads as an
 * IMPORT_PROBLEM: `<source>: <message>` when the importer said where.
 */
export function importNoteText(note: unknown): string | undefined {
  if (note === null || typeof note !== 'object') return undefined;
  const { message, source } = note as { message?: unknown; source?: unknown };
  return `${typeof source === 'string' ? `${source}: ` : ''}${String(message)}`;
}

// What keeps the flow from being read at all: not something passing over a node makes right.
const SHAPE_CODES: ReadonlySet<ProblemCode> = new Set([
  'INVALID_FLOW',
  'INVALID_CONFIG',
  'UNKNOWN_NODE_TYPE',
  'DUPLICATE_NODE_ID',
  'DEACTIVATED_NODE',
  'PINNED_OUTPUT',
]);

/**
 * A deactivated node's errors as warnings, said as such: runs never run it,
 * so a node half set up can be deactivated while the rest of the flow is
 * tried (as n8n allows). A config that breaks its schema stays an error.
 */
export function passedOver<P extends Problem>(problems: readonly P[], deactivated: ReadonlySet<string>): P[] {
  if (deactivated.size === 0) return [...problems];
  return problems.map((p) =>
    p.severity === 'error' && p.nodeId !== undefined && deactivated.has(p.nodeId) && !SHAPE_CODES.has(p.code)
      ? { ...p, severity: 'warning', message: `${p.message} (the node is deactivated: runs pass over it)` }
      : p,
  );
}

/** The problems that block a run or a publish; warnings are left out. */
export function errorsIn<P extends Problem>(problems: readonly P[]): P[] {
  return problems.filter((p) => p.severity === 'error');
}

/** One line a person can read: `CODE node x (field): message`. */
export function formatProblem(problem: Problem): string {
  const where = [
    problem.nodeId !== undefined ? `node ${problem.nodeId}` : undefined,
    problem.edgeId !== undefined ? `edge ${problem.edgeId}` : undefined,
    problem.field !== undefined ? `(${problem.field})` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const level = problem.severity === 'warning' ? 'warning ' : '';
  return `${level}${problem.code}${where ? ` ${where}` : ''}: ${problem.message}`;
}
