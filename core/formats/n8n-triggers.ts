import { PARAMETER_NAME_PATTERN } from '../model/ids';
import type { Parameter, ParameterType } from '../model/parameter';
import { asString, isRecord } from './shared';
import { rows, type ConvertContext, type Converted, type NodeKind } from './n8n-model';
import { ownEntry } from '../model/is-record';

/**
 * n8n's triggers become the flow's input node; what they bring (a chat
 * message, a sub-workflow's inputs, a webhook's body) becomes its parameters.
 * A Flowbench flow runs when a person, the CLI or an MCP client starts it, so
 * a trigger's event (a schedule, a webhook's URL) is said, not applied.
 */

const inputNode = (parameters: Parameter[], read: string[]): Converted => ({
  type: 'input',
  config: {},
  parameters,
  read,
});

const TYPES: Record<string, ParameterType> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  array: 'array',
  object: 'object',
  any: 'any',
};

/** A parameter for a field n8n names freely: said when its name had to change. */
function parameterNamed(
  ctx: ConvertContext,
  name: string,
  type: ParameterType,
  field: string,
  required = true,
): Parameter {
  let valid = name
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!PARAMETER_NAME_PATTERN.test(valid)) valid = `input_${valid}`.slice(0, 64);
  if (valid !== name)
    ctx.problem(`its field "${name}" is the input ${valid} (an input's name is letters, digits and _)`, {
      field,
      severity: 'warning',
    });
  return { name: valid, type, required, description: '' };
}

const chatTrigger: NodeKind['convert'] = (ctx) => {
  if (ctx.node.parameters.public === true)
    ctx.problem(
      'its public chat page is not carried over: the Chat tab, `flowbench run` and MCP clients send the message',
      { field: 'public', severity: 'warning' },
    );
  return inputNode(
    [{ name: 'chatInput', type: 'string', required: true, description: 'The chat message.' }],
    ['public', 'options', 'mode', 'initialMessages'],
  );
};

/** A sub-workflow's trigger: its declared inputs (1.1), or the fields of its JSON example. */
const workflowTrigger: NodeKind['convert'] = (ctx) => {
  const p = ctx.node.parameters;
  const source = asString(p.inputSource, ctx.node.typeVersion >= 1.1 ? 'workflowInputs' : 'passthrough');
  const read = ['inputSource', 'workflowInputs', 'jsonExample'];
  if (source === 'workflowInputs') {
    const parameters = rows(p.workflowInputs, 'values').map((row, i) =>
      // n8n passes a field the caller leaves out as null: none is required.
      parameterNamed(
        ctx,
        asString(row.name),
        ownEntry(TYPES, asString(row.type, 'string')) ?? 'any',
        `workflowInputs.values[${i}].name`,
        false,
      ),
    );
    return inputNode(parameters, read);
  }
  if (source === 'jsonExample') {
    let example: unknown;
    try {
      example = JSON.parse(asString(p.jsonExample, '{}'));
    } catch {
      example = undefined;
    }
    if (!isRecord(example)) {
      ctx.problem('its JSON example is no JSON object, so its inputs are not known: add them in Flow settings', {
        field: 'jsonExample',
      });
      return inputNode([], read);
    }
    const typeOf = (v: unknown): ParameterType =>
      Array.isArray(v) ? 'array' : v === null ? 'any' : (TYPES[typeof v] ?? 'any');
    return inputNode(
      Object.entries(example).map(([name, v]) => parameterNamed(ctx, name, typeOf(v), `jsonExample.${name}`)),
      read,
    );
  }
  ctx.problem('it accepts any data, so its inputs are not known: add them in Flow settings', {
    field: 'inputSource',
  });
  return inputNode([], read);
};

const webhook: NodeKind['convert'] = (ctx) => {
  ctx.problem(
    `its URL (${asString(ctx.node.parameters.httpMethod, 'GET')} /${asString(ctx.node.parameters.path)}) is not served: Flowbench runs the flow from the editor, \`flowbench run\` or an MCP client, with the request's body and query as inputs`,
    { field: 'path', severity: 'warning' },
  );
  return inputNode(
    [
      { name: 'body', type: 'any', required: false, description: "The request's body." },
      { name: 'query', type: 'object', required: false, description: "The request's query parameters." },
    ],
    ['httpMethod', 'path', 'responseMode', 'options', 'authentication'],
  );
};

const formTrigger: NodeKind['convert'] = (ctx) => {
  const parameters = rows(ctx.node.parameters.formFields, 'values').map((row, i) =>
    parameterNamed(
      ctx,
      asString(row.fieldLabel, `field_${i + 1}`),
      row.fieldType === 'number' ? 'number' : 'string',
      `formFields.values[${i}].fieldLabel`,
      row.requiredField === true,
    ),
  );
  ctx.problem('its form page is not served: the Run form asks for the same fields', { severity: 'warning' });
  return inputNode(parameters, ['formTitle', 'formDescription', 'formFields', 'options', 'path', 'responseMode']);
};

const noInputs: NodeKind['convert'] = () => inputNode([], []);

/**
 * n8n's MCP Server Trigger serves the tools attached to it to MCP clients.
 * Flowbench's MCP server serves every published flow as a tool: the
 * workflows its tools call are what to import and publish, each said.
 */
const mcpServerTrigger: NodeKind['convert'] = (ctx) => {
  const tools = ctx.attached('ai_tool');
  const named = tools.map((tool) => {
    const id = tool.parameters.workflowId;
    return isRecord(id) && typeof id.cachedResultName === 'string' ? `"${id.cachedResultName}"` : `"${tool.name}"`;
  });
  ctx.problem(
    `it serves ${tools.length === 0 ? 'no tools' : `its tools (${named.join(', ')})`} to MCP clients; Flowbench serves each published flow as a tool of its own MCP server (\`flowbench mcp\`): import the workflows they call and publish them. This flow has nothing to run`,
  );
  return inputNode([], ['path', 'authentication', 'options']);
};

const scheduled: NodeKind['convert'] = (ctx) => {
  ctx.problem('its schedule is not applied: a Flowbench flow runs when it is started', {
    field: 'rule',
    severity: 'warning',
  });
  return inputNode([], ['rule', 'triggerTimes']);
};

/** A trigger of an event Flowbench does not have (a Slack message, a new row): the flow gets an input node, said. */
const otherTrigger: NodeKind['convert'] = (ctx) => {
  ctx.problem(
    `${ctx.node.type} starts the workflow on an event Flowbench does not have: the flow starts at an input node; add the inputs it needs in Flow settings`,
  );
  return inputNode([], Object.keys(ctx.node.parameters));
};

const trigger = (convert: NodeKind['convert']): NodeKind => ({ data: () => ({ kind: 'inputs' }), convert });

export const TRIGGERS: Record<string, NodeKind> = {
  'n8n-nodes-base.manualTrigger': trigger(noInputs),
  '@n8n/n8n-nodes-langchain.manualChatTrigger': trigger(chatTrigger),
  '@n8n/n8n-nodes-langchain.chatTrigger': trigger(chatTrigger),
  'n8n-nodes-base.executeWorkflowTrigger': trigger(workflowTrigger),
  'n8n-nodes-base.webhook': trigger(webhook),
  'n8n-nodes-base.formTrigger': trigger(formTrigger),
  'n8n-nodes-base.scheduleTrigger': trigger(scheduled),
  'n8n-nodes-base.cron': trigger(scheduled),
  '@n8n/n8n-nodes-langchain.mcpTrigger': trigger(mcpServerTrigger),
};

/** Any other node n8n calls a trigger (its type ends so). */
export const OTHER_TRIGGER: NodeKind = trigger(otherTrigger);
