import { unusedFieldWarnings } from './known-fields';
import { asString, importedToolName, isRecord, type ImportProblem, type ImportedFlow } from './shared';
import { unknownToolFlowFields } from './tool-flow-fields';

/**
 * A flow of seed 000: tool fields, typed parameters and ordered return values,
 * or views (UI widgets with mock data), which become the result's view: an MCP
 * App that shows the structured result, the mock data until fields are mapped.
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
  const views: unknown[] = Array.isArray(doc.views) ? doc.views : [];
  const view = views.length > 0 ? importView(views, values.length > 0, problems) : undefined;
  const parameters = (Array.isArray(doc.parameters) ? doc.parameters : []).filter(isRecord).map((p) => ({
    name: asString(p.name),
    type: ['string', 'number', 'integer', 'boolean'].includes(asString(p.type)) ? asString(p.type) : 'string',
    description: asString(p.description),
    required: p.optional !== true,
  }));
  problems.push(
    ...unusedFieldWarnings(unknownToolFlowFields(doc), 'tool flow', {
      // Parameters and return values are written back from the flow's own, which have no place for them.
      isKept: (source) => !/^(parameters|returnValues)\[/.test(source),
    }),
  );
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
        view
          ? {
              id: 'result',
              type: 'output',
              label: view.title,
              position: { x: 300, y: 100 },
              config: { mode: 'structured', fields: [], view },
            }
          : {
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

/**
 * The first view, as the result's view: its name as the title, its mock data
 * (`mockData`, or seed 000's `mockDataEntity`) as the sample. What cannot be
 * honoured is said: views beside return values (the seed keeps them apart),
 * more than one view (a tool shows one), a view that is no object or whose
 * mock data is not a JSON object.
 */
function importView(
  views: unknown[],
  hasReturnValues: boolean,
  problems: ImportProblem[],
): { title: string; mockData?: Record<string, unknown> } | undefined {
  if (hasReturnValues) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      nodeId: 'result',
      source: 'views',
      message: `the flow has both return values and ${views.length} view(s), which seed 000 keeps apart; the return values are kept and the views left in the flow's metadata`,
    });
    return undefined;
  }
  const [first] = views;
  if (!isRecord(first)) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      nodeId: 'result',
      source: 'views[0]',
      message: 'not a view (an object with a name and mock data); it is kept in the metadata',
    });
    return undefined;
  }
  const entity = first.mockDataEntity;
  const mock = first.mockData ?? (isRecord(entity) && 'data' in entity ? entity.data : entity);
  if (mock !== undefined && !isRecord(mock)) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      nodeId: 'result',
      source: 'views[0].mockData',
      message:
        "the view's mock data is not a JSON object, so it cannot be a tool's structured result; the view has none",
    });
  }
  if (views.length > 1) {
    problems.push({
      code: 'IMPORT_PROBLEM',
      severity: 'warning',
      nodeId: 'result',
      source: 'views[1]',
      message: `a tool shows one view: the first, "${asString(first.name, 'View')}", is offered; ${views.length - 1} more are kept in the flow's metadata`,
    });
  }
  const title = asString(first.name, asString(first.title, 'View')).slice(0, 200) || 'View';
  return { title, ...(isRecord(mock) ? { mockData: mock } : {}) };
}
