import { stringify as stringifyYaml } from 'yaml';
import type { Flow } from '../model/flow';
import { exportFlowDefinition } from './flow-definition';
import { exportFlowyPrompt } from './flowyprompt';
import type { ExportFormat } from './export-formats';
import { serializeNative } from './native';
import { exportWorkflow } from './workflow-export';

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
