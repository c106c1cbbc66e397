// First: zod reads its settings as it loads (see the file).
import './zod-jitless';
import type { Flow } from '../../../core/model/flow';
import { applyFlowDelta } from '../../../core/editing/flow-delta';
import { doPatternWork, type PatternRequest, type PatternResponse } from './pattern-requests';

/**
 * Find's and Replace's regular expressions run here, off the page's thread
 * (see pattern-runner.ts): one that backtracks without end ties up this
 * worker, which the page then ends, instead of freezing the editor.
 */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PatternRequest>) => void) | null;
  postMessage: (response: PatternResponse) => void;
};

/** The flow as the page last sent it: whole once, then what changed in it (see core/editing/flow-delta.ts). */
let flow: Flow | undefined;

scope.onmessage = ({ data: request }) => {
  try {
    if (request.flow) flow = request.flow;
    else if (request.delta && flow) flow = applyFlowDelta(flow, request.delta);
    else if (request.delta) throw new Error('a change was sent before its flow');
    if (!flow) throw new Error('no flow was sent');
    scope.postMessage({ id: request.id, value: doPatternWork(flow, request) });
  } catch (error) {
    scope.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
};
