import type { Flow } from '../model/flow';
import type { Parameter } from '../model/parameter';

type JsonSchema = Record<string, unknown>;

function parameterSchema(parameter: Parameter): JsonSchema {
  const base: JsonSchema =
    parameter.type === 'enum'
      ? { type: 'string', enum: parameter.enum ?? [] }
      : parameter.type === 'array'
        ? { type: 'array', ...(parameter.items ? { items: { type: parameter.items } } : {}) }
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

/** The structured output node whose fields become `structuredContent`, if the flow has one. */
export function structuredOutputFields(flow: Flow): { name: string; type: string; description: string }[] | undefined {
  const outputs = flow.nodes.filter((n) => n.type === 'output');
  const structured = outputs.find((n) => n.config.mode === 'structured');
  if (!structured || outputs.some((n) => n.config.mode !== 'structured')) return undefined;
  return (structured.config.fields ?? []) as { name: string; type: string; description: string }[];
}

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
    ...(Object.keys(hints).length > 0 ? { annotations: { ...hints, ...(title ? { title } : {}) } } : {}),
  };
}
