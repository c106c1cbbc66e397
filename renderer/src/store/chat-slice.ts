import type { StateCreator } from 'zustand';
import type { Flow } from '../../../core/model/flow';
import { isRecord } from '../../../core/model/is-record';
import type { Parameter } from '../../../core/model/parameter';
import type { RunRecord, RunStatus } from '../../../core/model/run';
import { formatCost } from '../../../core/model/pricing';
import { toolResult } from '../../../core/model/tool-result';
import type { AppState } from './app-store';
import { keepList, readList } from './stored-list';

/** One message sent in the Chat tab and what the flow answered. */
export interface ChatTurn {
  message: string;
  /** The conversation its run went on: every turn of a chat has its chat's (per-conversation memory). */
  conversation?: string;
  /** The run the message started; none while it starts, or when it did not. */
  runId?: string;
  /** Set once its run has ended, or at once when it did not start. */
  answer?: ChatAnswer;
}

export interface ChatAnswer {
  status: RunStatus | 'not started' | 'deleted';
  /** What an MCP client would get: the result's text, its structured content as JSON, or the error. */
  text: string;
  /** The images in it (MCP image content: a flow that returns an image), shown as pictures. */
  images?: { mimeType: string; data: string }[];
  isError: boolean;
  /** What it took, as chat playgrounds show under an answer: "1.20 s · 150 tokens · $0.0012". */
  facts?: string;
  /** The tools an agent or MCP tool node called for it, `server/tool ×n`, in the order first called. */
  tools?: string[];
}

export interface ChatSlice {
  /** Each flow's conversation in this window, oldest first (its runs are stored as any other). */
  chats: Record<string, ChatTurn[]>;
  /** Runs the open flow with `message` as its chat parameter (chatParameter), the Run form's other inputs as they are. */
  sendChat: (message: string) => Promise<void>;
  /** Fills in the answer of the turn whose run this is, when it has none yet. */
  settleChatTurn: (run: RunRecord) => void;
  /** The turn's run is no longer stored (deleted meanwhile): said in its place. */
  chatRunGone: (runId: string) => void;
  /** Starts a new conversation, with per-conversation memory empty again (the runs stay listed). */
  clearChat: () => void;
  /** Takes back the open flow's conversation this tab kept before a reload, when it has none yet. */
  restoreChat: () => void;
}

// Kept in the tab's session storage too: a reload keeps the conversation, as it keeps edits
// waiting to be saved; another tab starts its own.
const storageKey = (flowId: string) => `flowbench.chat.${flowId}`;

const keepChat = (flowId: string, turns: readonly ChatTurn[]): void =>
  keepList(sessionStorage, storageKey(flowId), turns);

const keptChat = (flowId: string): ChatTurn[] =>
  readList(sessionStorage, storageKey(flowId), (kept) =>
    Array.isArray(kept)
      ? kept.filter((turn: unknown): turn is ChatTurn => isRecord(turn) && typeof turn.message === 'string')
      : [],
  );

/** A new chat's conversation: what its runs' per-conversation memory channels share. */
const newConversation = () => `chat-${crypto.randomUUID()}`;

/**
 * The parameter a chat message goes to: the first text parameter a run
 * needs, else the first text one, as Langflow's and Dify's chat input is the
 * flow's one text input. None: the flow cannot be chatted with.
 */
export function chatParameter(flow: Pick<Flow, 'parameters'>): Parameter | undefined {
  const texts = flow.parameters.filter((p) => p.type === 'string' && !p.enum);
  return texts.find((p) => p.required !== false) ?? texts[0];
}

/** The answer a run gave, as the Run tab's "What an MCP client receives" shows it, with what it took. */
export function chatAnswer(flow: Flow, run: RunRecord): ChatAnswer {
  const result = toolResult(flow, run, false);
  const text = result.structuredContent
    ? JSON.stringify(result.structuredContent, null, 2)
    : result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n\n');
  const images = result.content.flatMap((item) =>
    item.type === 'image' ? [{ mimeType: item.mimeType, data: item.data }] : [],
  );
  const tokens = run.usage ? (run.usage.inputTokens ?? 0) + (run.usage.outputTokens ?? 0) : 0;
  const facts = [
    run.durationMs !== undefined ? `${(run.durationMs / 1000).toFixed(2)} s` : '',
    tokens > 0 ? `${tokens} tokens` : '',
    run.usage?.cost !== undefined ? formatCost(run.usage.cost) : '',
  ].filter(Boolean);
  const calls = new Map<string, number>();
  for (const call of run.steps.flatMap((step) => step.toolCalls ?? [])) {
    const name = `${call.server}/${call.tool}`;
    calls.set(name, (calls.get(name) ?? 0) + 1);
  }
  const tools = [...calls].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name));
  return {
    status: run.status,
    text,
    ...(images.length > 0 ? { images } : {}),
    isError: result.isError === true,
    ...(facts.length > 0 ? { facts: facts.join(' · ') } : {}),
    ...(tools.length > 0 ? { tools } : {}),
  };
}

export const createChatSlice: StateCreator<AppState, [], [], ChatSlice> = (set, get) => {
  /** The flow's conversation is now `turns`, here and in the tab's storage. */
  const setTurns = (flowId: string, turns: ChatTurn[]) => {
    set((state) => ({ chats: { ...state.chats, [flowId]: turns } }));
    keepChat(flowId, turns);
  };
  /** Changes the open flow's turn at `index`. */
  const updateTurn = (flowId: string, index: number, change: Partial<ChatTurn>) =>
    setTurns(
      flowId,
      (get().chats[flowId] ?? []).map((turn, i) => (i === index ? { ...turn, ...change } : turn)),
    );
  return {
    chats: {},
    async sendChat(message) {
      const { flow, flowId } = get();
      const parameter = flow && chatParameter(flow);
      if (!flow || !flowId || !parameter) return;
      const turns = get().chats[flowId] ?? [];
      const conversation = turns.find((t) => t.conversation)?.conversation ?? newConversation();
      setTurns(flowId, [...turns, { message, conversation }]);
      const index = turns.length;
      const runId = await get().startRun({ inputs: { [parameter.name]: message }, keepPanel: true, conversation });
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
    chatRunGone(runId) {
      const flowId = get().flowId;
      const index = flowId ? (get().chats[flowId] ?? []).findIndex((t) => t.runId === runId && !t.answer) : -1;
      if (flowId && index >= 0)
        updateTurn(flowId, index, { answer: { status: 'deleted', text: 'Its run was deleted', isError: true } });
    },
    clearChat() {
      const flowId = get().flowId;
      if (flowId) setTurns(flowId, []);
    },
    restoreChat() {
      const flowId = get().flowId;
      if (flowId && get().chats[flowId] === undefined)
        set((state) => ({ chats: { ...state.chats, [flowId]: keptChat(flowId) } }));
    },
  };
};
