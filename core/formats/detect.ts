import { FlowbenchError } from '../model/errors';
import { isNativeFlow, upgradeNative } from './native';
import { parseJsonText } from './parse-json';

export type ImportFormat = 'native';

export interface DetectedImport {
  format: ImportFormat;
  /** The flow in the current native shape, not yet validated. */
  flow: Record<string, unknown>;
}

/** Recognizes a file by its content (not its name) and converts it to a native flow. */
export function detectImport(text: string, source: string): DetectedImport {
  const value = parseJsonText(text, source);
  if (isNativeFlow(value)) return { format: 'native', flow: upgradeNative(value) };
  throw new FlowbenchError(
    'UNSUPPORTED_FORMAT',
    `${source} is JSON but not a flow Flowbench can import (expected a Flowbench flow with schemaVersion, tool and nodes)`,
    { source },
  );
}
