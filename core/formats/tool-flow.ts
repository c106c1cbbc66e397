import { asString, importedToolName, isRecord, type ImportProblem, type ImportedFlow } from './shared';

/**
 * A flow of seed 000: tool fields, typed parameters and ordered return values
 * (or views, which Flowbench keeps but does not render).
 */
export function isToolFlow(value: unknown): value is Record<string, unknown> {
  return (
    isRecord(value) &&
    typeof value.toolName === 'string' &&
    (Array.isArray(value.returnValues) || Array.isArray(value.views))
  );
}

export function importToolFlow(doc: Record<string, unknown>): ImportedFlow {
  const problems: ImportProblem[] = [];
  const values = (Array.isArray(doc.returnValues) ? doc.returnValues : [])
    .filter(isRecord)
    .map((v, index) => ({ v, index }))
    // Sorting by `order` (then by position) keeps the sequence the tool returns.
    .sort((a, b) => Number(a.v.order ?? 0) - Number(b.v.order ?? 0) || a.index - b.index)
    .map(({ v }, index) => {
      const text = asString(v.text);
      // Seed 000 returns the text as written: braces in it are not Flowbench references.
      return { id: asString(v.id, `value_${index + 1}`), text, ...(text.includes('{{') ? { literal: true } : {}) };
    });
  if (Array.isArray(doc.views) && doc.views.length > 0) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      nodeId: 'result',
      source: 'views',
      message: `the flow has ${doc.views.length} view(s), UI widgets Flowbench does not render; they are kept in the flow's metadata`,
    });
  }
  const parameters = (Array.isArray(doc.parameters) ? doc.parameters : []).filter(isRecord).map((p) => ({
    name: asString(p.name),
    type: ['string', 'number', 'integer', 'boolean'].includes(asString(p.type)) ? asString(p.type) : 'string',
    description: asString(p.description),
    required: p.optional !== true,
  }));
  // Everything but what became nodes and parameters is kept for the round trip.
  const rest = Object.fromEntries(
    Object.entries(doc).filter(([key]) => key !== 'returnValues' && key !== 'parameters'),
  );
  return {
    format: 'tool-flow',
    problems,
    flow: {
      schemaVersion: 1,
      ...(typeof doc.id === 'string' ? { id: doc.id } : {}),
      name: asString(doc.name, asString(doc.toolName)),
      description: asString(doc.description),
      tool: {
        name: importedToolName(asString(doc.toolName), 'toolName', problems),
        description: asString(doc.toolDescription),
        whenToUse: asString(doc.whenToUse),
        whenNotToUse: asString(doc.whenNotToUse),
        enabled: doc.isActive !== false,
      },
      parameters,
      nodes: [
        { id: 'input', type: 'input', label: 'Parameters', position: { x: 0, y: 100 }, config: {} },
        {
          id: 'result',
          type: 'output',
          label: 'Return values',
          position: { x: 300, y: 100 },
          config: { mode: 'return_values', returnValues: values },
        },
      ],
      edges: [{ id: 'e1', source: 'input', target: 'result' }],
      metadata: { toolFlow: JSON.parse(JSON.stringify(rest)) as Record<string, unknown> },
    },
  };
}
