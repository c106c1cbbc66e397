import type { AbortSignalLike } from '../model/abort';
import { FlowbenchError, toFlowbenchError } from '../model/errors';
import {
  checkAnswer,
  type AskAnswer,
  type AskRequest,
  type HumanInputPort,
  type Question,
  type QuestionEvent,
} from '../model/human-input';

/**
 * The editor's side of ask nodes: a run started from the editor asks here,
 * the Run panel shows the question (a host event, or the list when the panel
 * opens later), and the person's answer comes back through the API. An
 * answer that does not fit the fields is refused and the question stays
 * open, so nothing typed is lost.
 */
export class QuestionDesk {
  private readonly waiting = new Map<string, { question: Question; answer: (answer: AskAnswer) => void }>();

  constructor(private readonly emit: (event: QuestionEvent) => void) {}

  /** Who answers the ask nodes of one run of flow `flowId`. */
  portFor(flowId: string): HumanInputPort {
    return { ask: (request, signal) => this.ask(flowId, request, signal) };
  }

  /** The questions waiting now, of one flow or of all. */
  list(flowId?: string): Question[] {
    return [...this.waiting.values()].map((w) => w.question).filter((q) => flowId === undefined || q.flowId === flowId);
  }

  /** Answers a waiting question; an accepted answer must fit its fields (HUMAN_INPUT_INVALID otherwise). */
  answer(runId: string, nodeId: string, answer: AskAnswer): void {
    const waiting = this.waiting.get(`${runId}/${nodeId}`);
    if (!waiting) {
      throw new FlowbenchError(
        'VALIDATION_ERROR',
        `no question of node "${nodeId}" is waiting in run ${runId}: it was answered, or the run ended`,
      );
    }
    if (answer.action === 'accept') {
      const content = checkAnswer(waiting.question, answer.content);
      return waiting.answer({ action: 'accept', content });
    }
    waiting.answer(answer);
  }

  private ask(flowId: string, request: AskRequest, signal: AbortSignalLike): Promise<AskAnswer> {
    return new Promise((resolve, reject) => {
      const key = `${request.runId}/${request.nodeId}`;
      const question: Question = {
        flowId,
        runId: request.runId,
        nodeId: request.nodeId,
        message: request.message,
        fields: [...request.fields],
      };
      const close = () => {
        this.waiting.delete(key);
        signal.removeEventListener('abort', abort);
        this.emit({ type: 'run.question.closed', runId: request.runId, nodeId: request.nodeId });
      };
      const abort = () => {
        close();
        reject(toFlowbenchError(signal.reason));
      };
      if (signal.aborted) return reject(toFlowbenchError(signal.reason));
      signal.addEventListener('abort', abort, { once: true });
      this.waiting.set(key, {
        question,
        answer: (answer) => {
          close();
          resolve(answer);
        },
      });
      this.emit({ type: 'run.question', question });
    });
  }
}
