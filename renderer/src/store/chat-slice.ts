import type { StateCreator } from 'zustand';
import type { Flow } from '../../../core/model/flow';
import type { Parameter } from '../../../core/model/parameter';
import type { RunRecord, RunStatus } from '../../../core/model/run';
import { toolResult } from '../../../core/model/tool-result';
import type { AppState } from './app-store';

/** One message sent in the Chat tab and what the flow answered. */
export interface ChatTurn {
  message: string;
  /** The run the message started; none while it starts, or when it did not. */
  runId?: string;
  /** Set once its run has ended, or at once when it did not start. */
  answer?: ChatAnswer;
}

export interface ChatAnswer {
  status: RunStatus | 'not started';
  /** What an MCP client would get: the result's text, its structured content as JSON, or the error. */
  text: string;
  isError: boolean;
}

export interface ChatSlice {
  /** Each flow's conversation in this window, oldest first (its runs are stored as any other). */
  chats: Record<string, ChatTurn[]>;
  /** Runs the open flow with `message` as its chat parameter (chatParameter), the Run form's other inputs as they are. */
  sendChat: (message: string) => Promise<void>;
  /** Fills in the answer of the turn whose run this is, when it has none yet. */
  settleChatTurn: (run: RunRecord) => void;
  /** Starts a new conversation (the runs stay listed). */
  clearChat: () => void;
}

/**
 * The parameter a chat message goes to: the first text parameter a run
 * needs, else the first text one, as Langflow's and Dify's chat input is the
 * flow's one text input. None: the flow cannot be chatted with.
 */
export function chatParameter(flow: Pick<Flow, 'parameters'>): Parameter | undefined {
  const texts = flow.parameters.filter((p) => p.type === 'string' && !p.enum);
  return texts.find((p) => p.required !== false) ?? texts[0];
}

/** The answer a run gave, as the Run tab's "What an MCP client receives" shows it. */
export function chatAnswer(flow: Flow, run: RunRecord): ChatAnswer {
  const result = toolResult(flow, run, false);
  const text = result.structuredContent
    ? JSON.stringify(result.structuredContent, null, 2)
    : result.content.map((item) => item.text).join('\n\n');
  return { status: run.status, text, isError: result.isError === true };
}

export const createChatSlice: StateCreator<AppState, [], [], ChatSlice> = (set, get) => {
  /** Changes the open flow's turn at `index`. */
  const updateTurn = (flowId: string, index: number, change: Partial<ChatTurn>) =>
    set((state) => ({
      chats: {
        ...state.chats,
        [flowId]: (state.chats[flowId] ?? []).map((turn, i) => (i === index ? { ...turn, ...change } : turn)),
      },
    }));
  return {
    chats: {},
    async sendChat(message) {
      const { flow, flowId } = get();
      const parameter = flow && chatParameter(flow);
      if (!flow || !flowId || !parameter) return;
      const index = (get().chats[flowId] ?? []).length;
      set((state) => ({ chats: { ...state.chats, [flowId]: [...(state.chats[flowId] ?? []), { message }] } }));
      const runId = await get().startRun({ inputs: { [parameter.name]: message }, keepPanel: true });
      if (!runId) {
        // Said where the Run form or the refusal above the canvas says it; the turn says that it did not start.
        const why = Object.entries(get().runInputProblems)
          .map(([name, problem]) => `${name}: ${problem}`)
          .join('; ');
        const refused = get().refusal?.title;
        const text = why ? `The Run form's other inputs first: ${why}` : (refused ?? 'The run did not start');
        return updateTurn(flowId, index, { answer: { status: 'not started', text, isError: true } });
      }
      updateTurn(flowId, index, { runId });
      // A quick run may have ended before its id came back.
      const run = get().run;
      if (run?.id === runId && run.status !== 'running') get().settleChatTurn(run);
    },
    settleChatTurn(run) {
      const { flow, flowId } = get();
      if (!flow || !flowId || run.status === 'running') return;
      const index = (get().chats[flowId] ?? []).findIndex((turn) => turn.runId === run.id && !turn.answer);
      if (index >= 0) updateTurn(flowId, index, { answer: chatAnswer(flow, run) });
    },
    clearChat() {
      const flowId = get().flowId;
      if (flowId) set((state) => ({ chats: { ...state.chats, [flowId]: [] } }));
    },
  };
};
