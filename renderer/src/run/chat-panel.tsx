import { dataUrl, dataUrlPieces } from '../../../core/model/data-urls';
import { AttachImage } from './run-input-field';
import { useEffect, useRef, useState } from 'react';
import { errorsIn } from '../../../core/model/problems';
import type { RunRecord } from '../../../core/model/run';
import { toFlowbenchError } from '../../../core/model/errors';
import { api } from '../api/client';
import { readWhenWritten } from '../read-when-written';
import { useAppStore } from '../store/app-store';
import { chatParameter, type ChatTurn } from '../store/chat-slice';
import { readOnlyShown } from '../store/versions-slice';
import { withChannelRules } from '../../../core/model/memory';
import { useShallow } from 'zustand/react/shallow';
import { RunQuestions } from './question-form';
import { ClippedText } from './clipped-text';

const NO_TURNS: ChatTurn[] = [];

/**
 * The flow as a chat, as Langflow's Playground and Dify's preview: each
 * message is a run with it as the flow's text parameter (the Run form's other
 * inputs as they are), its answer what an MCP client would get. The runs are
 * stored and listed as any other; the conversation is this browser tab's (chat-slice.ts).
 */
export function ChatPanel() {
  const flow = useAppStore((s) => s.flow);
  const flowId = useAppStore((s) => s.flowId);
  const turns = useAppStore((s) => (flowId ? s.chats[flowId] : undefined) ?? NO_TURNS);
  const run = useAppStore((s) => s.run);
  const problems = useAppStore((s) => s.problems);
  const [message, setMessage] = useState('');
  /** A picture to send with the message (its data: URL), as chat playgrounds take one. */
  const [image, setImage] = useState<string | undefined>(undefined);
  const end = useRef<HTMLDivElement>(null);
  const parameter = flow && chatParameter(flow);
  const lastTurn = turns.at(-1);
  const isRunning = run?.status === 'running';

  // The conversation this tab had before a reload.
  useEffect(() => {
    useAppStore.getState().restoreChat();
  }, [flowId]);
  // The newest message and its answer in view, as a chat keeps them. (Braces: Chromium's
  // scrollIntoView returns a promise now, which React would take for the effect's clean-up.)
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [turns.length, lastTurn?.answer, run?.steps.length]);

  if (!flow) return null;
  if (!parameter)
    return (
      <div className="chat-panel" aria-label="Chat">
        <p className="muted">
          Chat sends each message to the flow&apos;s text parameter, and this flow has none: add a parameter of type
          string (select the Input node) to chat with it, or run it from the Run tab.
        </p>
      </div>
    );
  const blockers = errorsIn(problems);
  const others = flow.parameters.filter((p) => p.name !== parameter.name);
  const isEmpty = message.trim() === '' && image === undefined;
  const send = () => {
    if (isEmpty || isRunning || blockers.length > 0) return;
    // The picture goes after the text, as its data: URL: a vision model reading the message gets it as an image.
    void useAppStore.getState().sendChat(image ? [message.trim(), image].filter(Boolean).join('\n\n') : message);
    setMessage('');
    setImage(undefined);
  };
  return (
    <div className="chat-panel" aria-label="Chat">
      <p className="muted chat-about">
        Each message runs the flow with it as <code>{parameter.name}</code>
        {others.length > 0 ? (
          <> (the Run form&apos;s {others.map((p) => p.name).join(', ')} as they are)</>
        ) : null}. <MemoryNote />
      </p>
      <div className="chat-turns" role="log" aria-label="Conversation">
        {turns.map((turn, i) => (
          <ChatTurnView
            key={i}
            turn={turn}
            run={turn.runId === run?.id ? run : undefined}
            canSend={!isRunning && blockers.length === 0}
          />
        ))}
        <div ref={end} />
      </div>
      {/* An ask node's question, answered here as in the Run tab: the turn's run waits on it. */}
      <RunQuestions flowId={flow.id} />
      {blockers.length > 0 && (
        <p className="error">
          This flow cannot run yet: {blockers.length} problem{blockers.length === 1 ? '' : 's'} (the Problems tab)
        </p>
      )}
      <div className="chat-composer">
        {image && (
          <span className="attached-image data-url">
            <img src={image} alt="the image to send" />
            <button type="button" className="small" onClick={() => setImage(undefined)}>
              Remove
            </button>
          </span>
        )}
        <textarea
          aria-label="Message"
          placeholder="A message (Enter sends, Shift+Enter a new line)"
          rows={2}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => {
            // Up in an empty box brings back the last message, to change and send again, as chat apps do.
            if (e.key === 'ArrowUp' && message === '' && lastTurn) {
              e.preventDefault();
              const parts = dataUrlPieces(lastTurn.message);
              setImage(parts.find((part) => part.type?.startsWith('image/'))?.text);
              return setMessage(
                parts
                  .filter((part) => part.type === undefined)
                  .map((part) => part.text)
                  .join('')
                  .trim(),
              );
            }
            // Enter sends, as in every chat; Ctrl+Enter too, which elsewhere runs the Run form's inputs.
            if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
            e.preventDefault();
            e.stopPropagation();
            send();
          }}
        />
        <div className="chat-actions">
          <button className="primary" disabled={isRunning || blockers.length > 0 || isEmpty} onClick={send}>
            Send
          </button>
          <AttachImage name="the message" onAttach={setImage} />
          {isRunning && <button onClick={() => void useAppStore.getState().cancelRun()}>Cancel</button>}
          {turns.length > 0 && (
            <button className="small" onClick={() => useAppStore.getState().clearChat()}>
              New chat
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * Whether the flow remembers earlier messages: only through its nodes'
 * memory reads, of this chat alone for a per-conversation channel, of every
 * run for the others (which one click makes per conversation).
 */
function MemoryNote() {
  const read = useAppStore(
    useShallow((s) => {
      const names = s.flow?.nodes.flatMap((n) => {
        const reads = (n.config as { memoryReads?: { channel: string }[] }).memoryReads;
        return Array.isArray(reads) ? reads.map((r) => r.channel) : [];
      });
      return [...new Set(names)];
    }),
  );
  const perConversation = useAppStore(
    useShallow((s) => s.flow?.memory.channels.filter((c) => c.perConversation).map((c) => c.id) ?? []),
  );
  if (read.length === 0)
    return (
      <>It keeps nothing between messages: give an LLM or agent node memory reads and writes to make it remember.</>
    );
  const own = read.filter((c) => perConversation.includes(c));
  const shared = read.filter((c) => !perConversation.includes(c));
  /** Removes what this chat's runs wrote to its per-conversation channels (Langflow's delete session); the messages stay. */
  const forget = async () => {
    const { flowId, chats, notify } = useAppStore.getState();
    const conversation = flowId ? chats[flowId]?.find((t) => t.conversation)?.conversation : undefined;
    if (!flowId || !conversation) return notify('This chat has not written to its memory yet');
    try {
      const { removed } = await api.memory.clear({ flowId, conversation });
      notify(
        `Forgot ${removed} memory entr${removed === 1 ? 'y' : 'ies'} of this chat: its next message starts afresh`,
      );
    } catch (error) {
      notify(toFlowbenchError(error).message);
    }
  };
  const makeOwn = () => {
    const state = useAppStore.getState();
    const { flow, updateFlowFields } = state;
    if (readOnlyShown(state)) return state.notify('Go back to the draft to change its memory: a past flow is shown');
    if (!flow) return;
    const channels = shared.reduce(
      (all, id) => withChannelRules(all, id, { perConversation: true }),
      flow.memory.channels,
    );
    updateFlowFields({ memory: { channels } });
  };
  return (
    <>
      {own.length > 0 && (
        <>
          It remembers this chat through its memory ({own.join(', ')}): New chat starts with none of it.{' '}
          <button className="link" onClick={() => void forget()}>
            Forget this chat
          </button>{' '}
        </>
      )}
      {shared.length > 0 && (
        <>
          It remembers through its memory ({shared.join(', ')}), which every run shares and outlives this chat: the flow
          settings&apos; Memory section clears it.{' '}
          <button className="link" onClick={makeOwn}>
            Keep {shared.length === 1 ? 'it' : 'them'} per conversation
          </button>
        </>
      )}
    </>
  );
}

function ChatTurnView({ turn, run, canSend }: { turn: ChatTurn; run: RunRecord | undefined; canSend: boolean }) {
  const tokens = useAppStore((s) => s.tokens);
  // Its run ended while another run was shown, or before a reload: the stored record gives the answer
  // (asked again when the runs list says it has ended).
  const listed = useAppStore((s) => s.recentRuns.find((r) => r.id === turn.runId)?.status);
  // The run this window started and follows: its events give the answer, even before the first of them
  // arrived (asked now, a run still being written was taken for one deleted).
  const followed = useAppStore((s) => turn.runId !== undefined && s.runId === turn.runId);
  const { answer, runId } = turn;
  useEffect(() => {
    if (answer || !runId || run || followed || listed === 'running') return;
    void readWhenWritten(() => api.runs.get({ id: runId })).then(
      (record) => useAppStore.getState().settleChatTurn(record),
      (error: unknown) => {
        if (toFlowbenchError(error).code === 'RUN_NOT_FOUND') useAppStore.getState().chatRunGone(runId);
      },
    );
  }, [answer, runId, run, followed, listed]);
  // While its run goes on: what a model streams, else that it runs.
  const streaming = run?.steps
    .filter((step) => step.status === 'running')
    .map((step) => tokens[step.nodeId])
    .findLast((text) => text !== undefined && text !== '');
  return (
    <>
      <div className="chat-message chat-sent">
        {dataUrlPieces(turn.message).map((part, i) =>
          part.type?.startsWith('image/') ? (
            <img key={i} className="chat-image" src={part.text} alt={`an image sent (${part.type})`} />
          ) : (
            <ClippedText key={i} as="span" text={part.text} />
          ),
        )}
      </div>
      {answer ? (
        <div
          className={`chat-message chat-answer${answer.isError ? ' is-error' : ''}`}
          aria-label={answer.isError ? `Answer: ${answer.status}` : 'Answer'}
        >
          {answer.isError && <strong>{answer.status}: </strong>}
          {/* An answer of megabytes (a flow returning a whole document) was laid out whole: the editor froze. */}
          <ClippedText as="span" className="chat-text" text={answer.text} />
          {answer.images?.map((image, i) => (
            <img
              key={i}
              className="chat-image"
              src={dataUrl(image.mimeType, image.data)}
              alt={`image ${i + 1} of the answer (${image.mimeType})`}
            />
          ))}
          {answer.tools && <small className="chat-facts">Called {answer.tools.join(', ')}</small>}
          {answer.facts && <small className="chat-facts">{answer.facts}</small>}
          <span className="chat-run-link">
            {runId && answer.status !== 'deleted' && (
              <>
                <button className="small" onClick={() => void useAppStore.getState().openRun(runId)}>
                  Its run
                </button>{' '}
                <button className="small" onClick={() => void useAppStore.getState().saveRunAsTestCase(runId)}>
                  Save as a test case
                </button>{' '}
              </>
            )}
            {/* Dify's regenerate: the same message again, as a new turn (a model answers differently; a provider was down). */}
            <button
              className="small"
              disabled={!canSend}
              onClick={() => void useAppStore.getState().sendChat(turn.message)}
            >
              Send again
            </button>
          </span>
        </div>
      ) : (
        <div className="chat-message chat-answer is-pending" aria-label="Answer: running">
          {streaming !== undefined ? (
            <ClippedText as="span" text={streaming} />
          ) : (
            <span className="muted">running…</span>
          )}
        </div>
      )}
    </>
  );
}
