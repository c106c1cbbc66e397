import type { Flow } from '../model/flow';
import type { ResultField, ResultView } from '../model/node-catalogue';
import type { Parameter } from '../model/parameter';
import { nodeRegistry } from './registry';

type JsonSchema = Record<string, unknown>;

function parameterSchema(parameter: Parameter): JsonSchema {
  const base: JsonSchema =
    parameter.type === 'enum'
      ? { type: 'string', enum: parameter.enum ?? [] }
      : parameter.type === 'array'
        ? { type: 'array', ...(parameter.items ? { items: { type: parameter.items } } : {}) }
        : parameter.type === 'any'
          ? {}
          : { type: parameter.type };
  return {
    ...base,
    ...(parameter.description ? { description: parameter.description } : {}),
    ...(parameter.default !== undefined ? { default: parameter.default } : {}),
  };
}

/** The tool's inputSchema: one property per parameter; required ones without a default are required. */
export function inputSchemaFor(parameters: readonly Parameter[]): JsonSchema {
  const required = parameters.filter((p) => p.required && p.default === undefined).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, parameterSchema(p)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * The fields of the flow's structured result, which become `structuredContent`:
 * only when every result node of the flow is structured, the first one's.
 */
export function structuredOutputFields(flow: Flow): readonly ResultField[] | undefined {
  let first: readonly ResultField[] | undefined;
  for (const node of flow.nodes) {
    const spec = nodeRegistry.get(node.type);
    if (!spec?.isResult) continue;
    const fields = spec.resultFields?.(node.config);
    if (!fields) return undefined;
    first ??= fields;
  }
  return first;
}

/** The view of a structured flow's result, when its result node has one. */
export function flowView(flow: Flow): ResultView | undefined {
  if (!structuredOutputFields(flow)) return undefined;
  for (const node of flow.nodes) {
    const view = nodeRegistry.get(node.type)?.resultView?.(node.config);
    if (view) return view;
  }
  return undefined;
}

/** The built-in view every flow tool without its own offers: the run's nodes, statuses and outputs. */
export const RUN_VIEW_URI = 'ui://flowbench/run';

/** The `ui://` resource of a flow's view (an MCP App); one per tool. */
export const viewUri = (flow: Flow): string => `ui://flowbench/views/${flow.tool.name}`;

/** outputSchema for structured flows. Fields may be null: a field fed by a skipped branch is empty. */
export function outputSchemaFor(flow: Flow): JsonSchema | undefined {
  const fields = structuredOutputFields(flow);
  if (!fields) return undefined;
  const property = (f: { type: string; description: string }): JsonSchema => ({
    ...(f.type === 'any' ? {} : { type: [f.type, 'null'] }),
    ...(f.description ? { description: f.description } : {}),
  });
  return { type: 'object', properties: Object.fromEntries(fields.map((f) => [f.name, property(f)])) };
}

/** The description a model reads: what the tool does, when to use it and when not to. */
export function toolDescription(flow: Flow): string {
  const parts = [flow.tool.description || flow.description];
  if (flow.tool.whenToUse) parts.push(`When to use: ${flow.tool.whenToUse}`);
  if (flow.tool.whenNotToUse) parts.push(`When not to use: ${flow.tool.whenNotToUse}`);
  return parts.filter(Boolean).join('\n\n');
}

/** An MCP icon: the image's type from its data: URI (an https icon's type is the server's to say). */
function iconOf(src: string): { src: string; mimeType?: string } {
  const mimeType = /^data:(image\/[a-z+]+);/.exec(src)?.[1];
  return { src, ...(mimeType ? { mimeType } : {}) };
}

/** The MCP tool definition of a published flow. */
export function toolFor(flow: Flow): JsonSchema & { name: string } {
  const { title, ...hints } = flow.tool.annotations;
  const outputSchema = outputSchemaFor(flow);
  return {
    name: flow.tool.name,
    title: title ?? flow.name,
    description: toolDescription(flow),
    inputSchema: inputSchemaFor(flow.parameters),
    ...(outputSchema ? { outputSchema } : {}),
    ...(flow.tool.icon ? { icons: [iconOf(flow.tool.icon)] } : {}),
    // MCP Apps: clients that support them fetch this resource and show the result in it:
    // the flow's own view, else the built-in one of the run (each node, its status and output).
    _meta: { ui: { resourceUri: flowView(flow) ? viewUri(flow) : RUN_VIEW_URI } },
    ...(Object.keys(hints).length > 0 ? { annotations: { ...hints, ...(title ? { title } : {}) } } : {}),
  };
}
