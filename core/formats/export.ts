import { stringify as stringifyYaml } from 'yaml';
import type { Flow } from '../model/flow';
import { exportFlowDefinition } from './flow-definition';
import { exportFlowyPrompt } from './flowyprompt';
import type { ExportFormat } from './export-formats';
import { serializeNative } from './native';
import { exportWorkflow } from './workflow-export';

/**
 * What of the flow an export format has no place for, in words: the export
 * says so instead of dropping it quietly. Only the native format carries a
 * flow's sticky notes, test cases, deactivated nodes, pinned outputs, nodes
 * that run for each item and per-conversation memory channels.
 */
export function leftOutOf(flow: Flow, format: ExportFormat): string[] {
  if (format === 'native') return [];
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    ...(flow.notes.length > 0 ? [count(flow.notes.length, 'sticky note', 'sticky notes')] : []),
    ...(flow.tests.length > 0 ? [count(flow.tests.length, 'test case', 'test cases')] : []),
    // Not a note: there, the node runs.
    ...flow.nodes.filter((n) => n.disabled).map((n) => `the deactivation of node "${n.id}" (it runs there)`),
    ...flow.nodes.filter((n) => n.pin).map((n) => `the pinned output of node "${n.id}"`),
    ...flow.nodes
      .filter((n) => n.forEach)
      .map((n) => `that node "${n.id}" runs for each item of a list (there, it runs once)`),
    ...flow.memory.channels
      .filter((c) => c.perConversation)
      .map((c) => `that memory channel "${c.id}" is per conversation (there, every run shares it)`),
  ];
}

/** The text of a flow in an export format; throws UNSUPPORTED_FORMAT when the format cannot express it. */
export function exportFlowText(flow: Flow, format: ExportFormat, publishedVersion?: number): string {
  switch (format) {
    case 'native':
      return serializeNative(flow);
    case 'flowyprompt':
      return `${JSON.stringify(exportFlowyPrompt(flow), null, 2)}\n`;
    case 'flow-definition-json':
      return `${JSON.stringify(exportFlowDefinition(flow, publishedVersion), null, 2)}\n`;
    case 'flow-definition-yaml':
      return stringifyYaml(exportFlowDefinition(flow, publishedVersion));
    case 'workflow':
      return `${JSON.stringify(exportWorkflow(flow), null, 2)}\n`;
  }
}
