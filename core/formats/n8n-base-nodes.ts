import { asString, freeName, isRecord } from './shared';
import { MAX_VALUE_NAME_CHARS } from '../model/limits';
import { optionsLeftOut, preview, rows, type NodeKind } from './n8n-model';
import { http, type Named } from './n8n-http';
import { wait } from './n8n-wait';

/**
 * n8n's core nodes that have a Flowbench counterpart: HTTP Request, Edit
 * Fields (Set), Code, Respond to Webhook, Stop and Error, Execute Workflow
 * and Wait. Each reads the parameters it can honour; the orchestrator says
 * the others.
 */

/** A name a code node's `values.<name>` and a JS object literal can both hold. */
const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * Edit Fields (Set) as a Code node that returns the fields: each field's value
 * is a template given to the code; a fixed number or boolean is written in
 * the code, so its type is kept.
 */
const set: NodeKind = {
  data: (_node, id) => ({ kind: 'object', nodeId: id }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const read = [
      'mode',
      'assignments',
      'values',
      'jsonOutput',
      'includeOtherFields',
      'include',
      'keepOnlySet',
      'options',
    ];
    if (p.mode === 'raw') {
      return {
        type: 'code',
        config: {
          values: [{ name: 'json', value: ctx.template(p.jsonOutput, 'jsonOutput') }],
          code: 'return JSON.parse(values.json);',
        },
        read,
      };
    }
    if (p.includeOtherFields === true || (ctx.node.typeVersion < 3 && p.keepOnlySet !== true))
      ctx.problem("it keeps the input's other fields too; here the node gives only the fields it sets", {
        field: 'includeOtherFields',
      });
    // Version 3: `assignments.assignments`; versions 1 and 2: `values.string`, `values.number`, `values.boolean`.
    type Field = { name?: unknown; value?: unknown; type?: unknown; field: string };
    const fields: Field[] =
      ctx.node.typeVersion >= 3
        ? rows(p.assignments, 'assignments').map((a, i) => ({ ...a, field: `assignments.assignments[${i}]` }))
        : Object.entries(isRecord(p.values) ? p.values : {}).flatMap(([type, list]) =>
            (Array.isArray(list) ? list.filter(isRecord) : []).map((a, i) => ({
              ...a,
              type,
              field: `values.${type}[${i}]`,
            })),
          );
    const values: Named[] = [];
    const entries: string[] = [];
    const names = new Set(fields.map((f) => asString(f.name)));
    for (const f of fields) {
      const name = asString(f.name);
      if (name.startsWith('=')) {
        ctx.problem(
          `its field's name is an expression (${preview(name)}), which n8n works out as the node runs; here the field is named by its text: rewrite it in the code`,
          { field: `${f.field}.name` },
        );
      } else if (!PLAIN_NAME.test(name)) {
        ctx.problem(`its field "${name}" is no plain name (n8n reads a dot as a nested field): rename it in the code`, {
          field: `${f.field}.name`,
        });
      }
      const key = JSON.stringify(name);
      const fixed = typeof f.value !== 'string' || !f.value.startsWith('=');
      if (
        fixed &&
        (f.type === 'number' || f.type === 'boolean') &&
        (typeof f.value !== 'string' || f.value.trim() !== '')
      ) {
        const literal = f.type === 'number' ? Number(f.value) : f.value === true || f.value === 'true';
        entries.push(`${key}: ${JSON.stringify(Number.isNaN(literal) ? null : literal)}`);
        continue;
      }
      // The field keeps its name in what the code returns; a name too long for a value is read under another.
      const valueName = name.length <= MAX_VALUE_NAME_CHARS ? name : freeName(names, `field_${values.length + 1}`);
      values.push({ name: valueName, value: ctx.template(f.value, `${f.field}.value`) });
      entries.push(`${key}: values[${JSON.stringify(valueName)}]`);
    }
    return { type: 'code', config: { values, code: `return { ${entries.join(', ')} };` }, read };
  },
};

/** n8n's Code is kept as written, said: it reads `$input` and items, which Flowbench's Code does not have. */
const code: NodeKind = {
  data: (_node, id) => ({ kind: 'object', nodeId: id }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const python = asString(p.language) === 'python' || asString(p.language) === 'pythonNative';
    const text = asString(python ? p.pythonCode : p.jsCode);
    ctx.problem(
      python
        ? "its Python code is kept as written: Flowbench's Code runs JavaScript; rewrite it"
        : "its code is kept as written: n8n's code reads $input, $json and items and returns items; Flowbench's reads values.<name> (here `item`, what came in) and returns the output: rewrite it",
      { field: python ? 'pythonCode' : 'jsCode' },
    );
    return {
      type: 'code',
      config: {
        values: [{ name: 'item', value: ctx.template('={{ $json }}', 'jsCode') }],
        code: text || 'return values.item;',
      },
      read: ['language', 'jsCode', 'pythonCode', 'mode'],
    };
  },
};

/** Respond to Webhook: what it answers is what the flow returns. */
const respond: NodeKind = {
  data: () => ({ kind: 'none', why: 'a Respond to Webhook node ends the run' }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const with_ = asString(p.respondWith, 'firstIncomingItem');
    const text =
      with_ === 'text' || with_ === 'json'
        ? ctx.template(p.responseBody, 'responseBody')
        : with_ === 'firstIncomingItem'
          ? ctx.template('={{ $json }}', 'respondWith')
          : '';
    if (text === '')
      ctx.problem(`it answers with ${with_}, which Flowbench does not carry over: set what the flow returns`, {
        field: 'respondWith',
      });
    optionsLeftOut(ctx, p.options, []);
    return {
      type: 'output',
      config: { mode: 'return_values', returnValues: [{ id: 'result', text }] },
      read: ['respondWith', 'responseBody', 'options'],
    };
  },
};

/** Stop and Error fails the run with its message, as a Code node that throws it. */
const stopAndError: NodeKind = {
  data: () => ({ kind: 'none', why: 'a Stop and Error node ends the run' }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const message =
      p.errorType === 'errorObject'
        ? ctx.template(p.errorObject, 'errorObject')
        : ctx.template(p.errorMessage, 'errorMessage');
    return {
      type: 'code',
      config: { values: [{ name: 'message', value: message }], code: 'throw new Error(values.message);' },
      endsRun: true,
      read: ['errorType', 'errorMessage', 'errorObject'],
    };
  },
};

/**
 * Execute Workflow as a flow node calling the flow of the workflow's name (a
 * flow node finds a flow by id, name or tool name): the n8n workflow, imported
 * here, keeps its name. One named by id alone is an error to choose.
 */
const executeWorkflow: NodeKind = {
  data: (_node, id) => ({ kind: 'object', nodeId: id }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const named = isRecord(p.workflowId) ? asString(p.workflowId.cachedResultName) : '';
    const id = isRecord(p.workflowId) ? asString(p.workflowId.value) : asString(p.workflowId);
    if (asString(p.source, 'database') !== 'database')
      ctx.problem(`it runs a workflow given as ${asString(p.source)}: import it as a flow and choose it in this node`, {
        field: 'source',
      });
    else if (named)
      ctx.problem(`it calls the flow "${named}": import the n8n workflow "${named}" too and publish it`, {
        field: 'workflowId',
        severity: 'warning',
      });
    else
      ctx.problem(
        `it calls the n8n workflow ${id || '(none)'} by id: import that workflow, publish it and choose it here`,
        {
          field: 'workflowId',
        },
      );
    const inputs = isRecord(p.workflowInputs) && isRecord(p.workflowInputs.value) ? p.workflowInputs.value : {};
    return {
      type: 'flow',
      config: {
        flow: asString(p.source, 'database') === 'database' ? named : '',
        inputs: Object.entries(inputs).map(([name, value]) => ({
          name,
          value: ctx.template(value, `workflowInputs.value.${name}`),
        })),
      },
      read: ['source', 'workflowId', 'workflowInputs', 'mode', 'options'],
    };
  },
};

/**
 * Merge waits for its inputs, as a Flowbench node waits for all its incoming
 * edges: a Code node given each input's item, returning them appended, combined
 * by position, or the chosen one.
 */
const merge: NodeKind = {
  data: (_node, id) => ({ kind: 'object', nodeId: id }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const count = typeof p.numberInputs === 'number' ? Math.min(10, Math.max(2, p.numberInputs)) : 2;
    const values = Array.from({ length: count }, (_, i) => {
      const data = ctx.inputData(i);
      // An answer (an agent's) is its output; n8n's item held it under its key: `{ output: … }`.
      const value =
        data?.kind === 'answer' ? `{{nodes.${data.nodeId}.output}}` : ctx.templateOfInput(i, '={{ $json }}', 'mode');
      const read = `values.input${i + 1}`;
      const item =
        data?.kind === 'answer'
          ? data.keys.reduceRight((inner, key) => `{ ${JSON.stringify(key)}: ${inner} }`, read)
          : read;
      return { name: `input${i + 1}`, value, item };
    });
    const mode = asString(p.mode, 'append');
    const list = values.map((v) => v.item).join(', ');
    let code = `return [${list}].flat();`;
    if (mode === 'combine' && asString(p.combineBy, asString(p.combinationMode)) === 'combineByPosition')
      code = `return Object.assign({}, ${list});`;
    else if (mode === 'chooseBranch') {
      const chosen = typeof p.useDataOfInput === 'number' ? p.useDataOfInput : 1;
      code = `return ${values[Math.min(count, Math.max(1, chosen)) - 1]!.item};`;
    } else if (mode !== 'append')
      ctx.problem(
        `its mode ${mode}${p.combineBy ? ` (${asString(p.combineBy)})` : ''} is not carried over: the code returns the inputs appended; write the merge it does`,
        { field: 'mode' },
      );
    return {
      type: 'code',
      config: { values, code },
      read: [
        'mode',
        'combineBy',
        'combinationMode',
        'numberInputs',
        'useDataOfInput',
        'chooseBranchMode',
        'output',
        'options',
      ],
    };
  },
};

export const BASE_NODES: Record<string, NodeKind> = {
  'n8n-nodes-base.merge': merge,
  'n8n-nodes-base.httpRequest': http,
  'n8n-nodes-base.set': set,
  'n8n-nodes-base.code': code,
  'n8n-nodes-base.respondToWebhook': respond,
  'n8n-nodes-base.stopAndError': stopAndError,
  'n8n-nodes-base.executeWorkflow': executeWorkflow,
  'n8n-nodes-base.wait': wait,
};
