import { asString, isRecord } from './shared';
import { optionsLeftOut, rows, type NodeKind } from './n8n-model';
import { modelFrom, schemaFromExample } from './n8n-sub-nodes';
import { ownEntry } from '../model/is-record';

/** n8n's Information Extractor and Text Classifier: LLM nodes answering JSON, the classifier's categories routed by conditions. */

/** n8n's default system prompt of an Information Extractor. */
const EXTRACTOR_SYSTEM =
  "You are an expert extraction algorithm.\nOnly extract relevant information from the text.\nIf you do not know the value of an attribute asked to extract, you may omit the attribute's value.";

const ATTRIBUTE_TYPES: Record<string, string> = {
  string: 'string',
  number: 'number',
  boolean: 'boolean',
  date: 'string',
};

/** The Information Extractor as an LLM node answering JSON of its attributes' schema. */
export const informationExtractor: NodeKind = {
  data: (_node, id) => ({ kind: 'answer', nodeId: id, keys: ['output'] }),
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const type = asString(p.schemaType, 'fromAttributes');
    let schema: Record<string, unknown> | undefined;
    if (type === 'fromAttributes') {
      const attributes = rows(p.attributes, 'attributes');
      schema = {
        type: 'object',
        properties: Object.fromEntries(
          attributes.map((a) => [
            asString(a.name),
            {
              type: ownEntry(ATTRIBUTE_TYPES, asString(a.type, 'string')) ?? 'string',
              ...(a.description ? { description: asString(a.description) } : {}),
            },
          ]),
        ),
        required: attributes.filter((a) => a.required === true).map((a) => asString(a.name)),
      };
    } else {
      try {
        const parsed: unknown = JSON.parse(asString(type === 'manual' ? p.inputSchema : p.jsonSchemaExample));
        if (isRecord(parsed)) schema = type === 'manual' ? parsed : schemaFromExample(parsed);
      } catch {
        schema = undefined;
      }
      if (!schema)
        ctx.problem("its schema is no JSON object: set the JSON output's schema in the inspector", {
          field: 'schemaType',
        });
    }
    const options = isRecord(p.options) ? p.options : {};
    optionsLeftOut(ctx, options, ['systemPromptTemplate']);
    return {
      type: 'llm',
      config: {
        ...modelFrom(ctx),
        system: ctx.template(options.systemPromptTemplate ?? EXTRACTOR_SYSTEM, 'options.systemPromptTemplate'),
        prompt: ctx.template(p.text ?? '={{ $json.chatInput }}', 'text'),
        outputFormat: 'json',
        ...(schema ? { jsonSchema: schema } : {}),
      },
      read: ['text', 'schemaType', 'attributes', 'jsonSchemaExample', 'inputSchema', 'options'],
    };
  },
};

/**
 * The Text Classifier as an LLM node answering `{ "category": … }`, then a
 * condition a category, in a chain: each category's output leaves from its
 * condition's true port, as n8n routes the item to that category's output
 * (the item handed on unchanged: `$json` after it reads its input).
 */
export const textClassifier: NodeKind = {
  data: (_node, _id, input) => input,
  convert: (ctx) => {
    const p = ctx.node.parameters;
    const options = isRecord(p.options) ? p.options : {};
    optionsLeftOut(ctx, options, ['fallback', 'systemPromptTemplate', 'multiClass']);
    if (options.multiClass === true)
      ctx.problem('it may send to several categories; here the first category the model names takes its branch', {
        field: 'options.multiClass',
      });
    const categories = rows(p.categories, 'categories').map((c) => ({
      name: asString(c.category),
      description: asString(c.description),
    }));
    const other = options.fallback === 'other';
    const names = [...categories.map((c) => c.name), ...(other ? ['other'] : [])];
    const list = categories.map((c) => (c.description ? `${c.name}: ${c.description}` : c.name)).join('\n');
    const system = asString(
      options.systemPromptTemplate,
      "Please classify the text provided by the user into one of the following categories: {categories}, and use the provided formatting instructions below. Don't explain, and only output the json.",
    ).replace('{categories}', names.join(', '));
    const suffix = (i: number) => `category_${i + 1}`;
    const conditions = names.map((name) => ({
      match: 'all',
      rules: [{ value: `{{nodes.${ctx.id}.output.category}}`, path: '$', operator: 'equals', operand: name }],
    }));
    return {
      type: 'llm',
      config: {
        ...modelFrom(ctx),
        system: `${ctx.template(system, 'options.systemPromptTemplate')}\n\n${list}`,
        prompt: ctx.template(p.inputText ?? '={{ $json.chatInput }}', 'inputText'),
        outputFormat: 'json',
        jsonSchema: {
          type: 'object',
          properties: { category: { type: 'string', enum: names } },
          required: ['category'],
        },
      },
      followers: conditions.map((config, i) => ({
        suffix: suffix(i),
        label: `${ctx.node.name}: ${names[i]}`,
        type: 'condition',
        config,
      })),
      inner: conditions.map((_c, i) => ({
        ...(i === 0 ? { port: 'out' } : { from: suffix(i - 1), port: 'false' }),
        to: suffix(i),
      })),
      outputs: names.map((_n, i) => ({ from: suffix(i), port: 'true' })),
      read: ['inputText', 'categories', 'options'],
    };
  },
};
