import { parse as parseYaml } from 'yaml';
import { FlowbenchError } from '../model/errors';
import { importFlowDefinition, isFlowDefinition } from './flow-definition';
import { importFlowyPrompt, isFlowyPrompt } from './flowyprompt';
import { isNativeFlow, upgradeNative } from './native';
import { parseJsonText } from './parse-json';
import type { ImportedFlow } from './shared';
import { importToolFlow, isToolFlow } from './tool-flow';
import { importWorkflow, isWorkflow } from './workflow';

export type { ImportFormat, ImportedFlow, ImportProblem } from './shared';

/** YAML aliases beyond this are refused: a "billion laughs" file would otherwise expand without end. */
const MAX_YAML_ALIASES = 100;

/** JSON when it looks like JSON, YAML otherwise (seed 004 definitions come in both). */
function parseText(text: string, source: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed === '') return parseJsonText(text, source);
  try {
    return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, prettyErrors: true }) as unknown;
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0] ?? '';
    throw new FlowbenchError('INVALID_YAML', `${source} is neither JSON nor valid YAML: ${reason}`, { source });
  }
}

/** Recognizes a file by its content (not its name) and converts it to a native flow. */
export function detectImport(text: string, source: string): ImportedFlow {
  const value = parseText(text, source);
  if (isNativeFlow(value)) return { format: 'native', flow: upgradeNative(value), problems: [] };
  if (isFlowyPrompt(value)) return importFlowyPrompt(value);
  if (isFlowDefinition(value)) return importFlowDefinition(value);
  if (isWorkflow(value)) return importWorkflow(value);
  if (isToolFlow(value)) return importToolFlow(value);
  throw new FlowbenchError(
    'UNSUPPORTED_FORMAT',
    `${source} is not a flow Flowbench can import: expected a Flowbench flow, a FlowyPrompt flow, a flow definition (JSON or YAML), a workflow with steps, or a tool flow with return values`,
    { source },
  );
}
