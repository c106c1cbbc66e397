import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Task } from '@modelcontextprotocol/sdk/types.js';
import { FlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { HumanInputPort } from '../model/human-input';
import type { RunRecord } from '../model/run';
import { toolResult, type McpToolResult } from '../model/tool-result';

/** How long a task's result is kept when the client asks for no other time (and at most). */
export const TASK_TTL_MS = 24 * 60 * 60 * 1000;
/** How often a client is told to ask how a task stands. */
const POLL_INTERVAL_MS = 1000;

/**
 * Tasks (MCP 2025-11-25): a client that supports them calls a flow tool as a
 * task and gets a task id at once; it asks `tasks/get` how it stands (nodes
 * done) and `tasks/result` for the tool result, so no request stays open for
 * the length of a run. Kept in memory per server process, each task to the
 * session that made it (another session's id is "not found"); cancelling one
 * cancels its run.
 */
export class FlowTaskStore extends InMemoryTaskStore {
  private readonly runs = new Map<string, AbortController>();

  /** The run a task stands for, cancelled with it. */
  track(taskId: string, controller: AbortController): void {
    this.runs.set(taskId, controller);
  }

  untrack(taskId: string): void {
    this.runs.delete(taskId);
  }

  override async updateTaskStatus(
    taskId: string,
    status: Task['status'],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === 'cancelled') {
      this.runs.get(taskId)?.abort(new FlowbenchError('CANCELLED', 'the client cancelled the task'));
    }
  }
}

export interface TaskRun {
  flow: Flow;
  /** The result carries the run view's data (the client shows views). */
  showsViews: boolean;
  /** Who answers the run's ask nodes within the task; absent when the client cannot be asked. */
  ask?: (taskId: string) => HumanInputPort;
  /**
   * Runs the flow with this signal, progress callback and person to ask (if
   * any); resolves with the stored record.
   */
  run(signal: AbortSignal, onNodeDone: (done: number) => void, human: HumanInputPort | undefined): Promise<RunRecord>;
}

/** Creates the task, starts its run apart from the request, and answers with the task at once. */
export async function startTask(
  tasks: FlowTaskStore,
  store: RequestTaskStore,
  requestedTtl: number | undefined,
  work: TaskRun,
): Promise<{ task: Task }> {
  const ttl = Math.min(requestedTtl ?? TASK_TTL_MS, TASK_TTL_MS);
  const task = await store.createTask({ ttl, pollInterval: POLL_INTERVAL_MS });
  const controller = new AbortController();
  tasks.track(task.taskId, controller);
  const total = work.flow.nodes.length;
  // The task shows input_required while a question waits (a branch finishing meanwhile does not hide it).
  let done = 0;
  let waiting = 0;
  const showStatus = () =>
    void store
      .updateTaskStatus(
        task.taskId,
        waiting > 0 ? 'input_required' : 'working',
        `${done} of ${total} nodes done${waiting > 0 ? '; a question waits for the person' : ''}`,
      )
      .catch(() => undefined);
  const asker = work.ask?.(task.taskId);
  const human: HumanInputPort | undefined = asker && {
    ask: async (request, signal) => {
      waiting++;
      try {
        return await asker.ask(request, signal);
      } finally {
        waiting--;
        showStatus();
      }
    },
  };
  const settle = (status: 'completed' | 'failed', result: McpToolResult) =>
    // A task cancelled meanwhile is terminal already: its result is not stored.
    store.storeTaskResult(task.taskId, status, result).catch(() => undefined);
  void work
    .run(
      controller.signal,
      (count) => {
        done = count;
        showStatus();
      },
      human,
    )
    .then(
      (record) =>
        settle(record.status === 'succeeded' ? 'completed' : 'failed', toolResult(work.flow, record, work.showsViews)),
      (error: unknown) =>
        settle('failed', {
          content: [{ type: 'text', text: `${work.flow.tool.name} could not run: ${String(error)}` }],
          isError: true,
        }),
    )
    .finally(() => tasks.untrack(task.taskId));
  return { task };
}
