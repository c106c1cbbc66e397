import { FlowbenchError } from '../model/errors';

/** The formats a flow can be exported to. A module of its own: the API contract names them without loading the exporters. */
export const EXPORT_FORMATS = [
  'native',
  'flowyprompt',
  'flow-definition-json',
  'flow-definition-yaml',
  'workflow',
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function assertExportFormat(format: string): ExportFormat {
  if ((EXPORT_FORMATS as readonly string[]).includes(format)) return format as ExportFormat;
  throw new FlowbenchError('USAGE_ERROR', `--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${format}"`);
}

/** The file name an export is offered under: `<tool name>.flowbench.json` for the native format. */
export function exportFileName(toolName: string, format: ExportFormat): string {
  const extension = format === 'flow-definition-yaml' ? 'yaml' : 'json';
  return `${toolName}.${format === 'native' ? 'flowbench.' : ''}${extension}`;
}
