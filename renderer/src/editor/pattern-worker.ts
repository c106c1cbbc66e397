// First: zod reads its settings as it loads (see the file).
import './zod-jitless';
import type { Flow } from '../../../core/model/flow';
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

/** The flow of the last request that carried one: the page sends it again only when it changed. */
let flow: Flow | undefined;

scope.onmessage = ({ data: request }) => {
  if (request.flow) flow = request.flow;
  try {
    if (!flow) throw new Error('no flow was sent');
    scope.postMessage({ id: request.id, value: doPatternWork(flow, request) });
  } catch (error) {
    scope.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
};
