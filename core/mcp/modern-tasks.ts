import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import type { McpToolResult } from '../model/tool-result';
import type { CallContext } from './call-context';
import { canElicit, clientCapabilities, Conversation, inputRequestsFor, type Question } from './conversation';
import { TASK_TTL_MS } from './flow-tasks';

/** The Tasks extension of MCP 2026-07-28. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** A call still running after this long goes on as a task; quicker ones answer as usual. */
export const TASK_AFTER_MS = 5_000;
/** How often a client is told to ask how a task stands. */
const POLL_INTERVAL_MS = 1000;

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface FlowTask {
  conversation: Conversation;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  result?: McpToolResult;
  error?: { code: number; message: string };
  question?: Question;
  expiry: NodeJS.Timeout | undefined;
}

/** The client declared the Tasks extension in this request's envelope. */
export function supportsTasks(ctx: ServerContext): boolean {
  const extensions = clientCapabilities(ctx)?.extensions;
  return extensions !== undefined && TASKS_EXTENSION in extensions;
}

/**
 * Flow calls as tasks for 2026-07-28 clients that declare the Tasks
 * extension: the server decides, so a call answers as usual when its run
 * ends within TASK_AFTER_MS (at once for a flow its history says is long),
 * and otherwise answers with a task the client polls (`tasks/get`: status,
 * nodes done, then the result), answers (`tasks/update`, for an ask node's
 * question) or cancels (`tasks/cancel`). The task id is unguessable and is
 * what a later request proves it belongs with; tasks are kept 24 hours.
 */
export class ModernTasks {
  private readonly tasks = new Map<string, FlowTask>();

  async call(
    ctx: ServerContext,
    tool: string,
    base: CallContext,
    start: (context: CallContext) => Promise<McpToolResult>,
    waitMs: number,
  ): Promise<McpToolResult | Record<string, unknown>> {
    const conversation = new Conversation(tool, canElicit(ctx));
    const now = new Date().toISOString();
    const task: FlowTask = {
      conversation,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      // Set when the call becomes a task (most answer before then and need no timer).
      expiry: undefined,
    };
    // Progress goes into the task's status message: a task has no request to notify.
    conversation.notify = (notification) => {
      const { progress, total } = notification.params as { progress?: number; total?: number };
      if (progress !== undefined) this.touch(task, { statusMessage: `${progress} of ${total ?? '?'} nodes done` });
      return Promise.resolve();
    };
    conversation.done = start(conversation.context({ ...base, meta: { ...base.meta, progressToken: 'task' } }));
    const release = conversation.cancelWhenAborted(ctx.mcpReq.signal);
    let timer: NodeJS.Timeout | undefined;
    const question = conversation.nextQuestion();
    const next = await Promise.race([
      conversation.done.then((result) => ({ result })),
      question.then((asked) => ({ question: asked })),
      new Promise<{ waited: true }>((resolve) => (timer = setTimeout(() => resolve({ waited: true }), waitMs))),
    ]).finally(() => {
      clearTimeout(timer);
      release();
    });
    if ('result' in next) return next.result;
    this.tasks.set(conversation.key, task);
    task.expiry = setTimeout(() => this.forget(conversation.key), TASK_TTL_MS);
    task.expiry.unref();
    // A question asked already, or later while the task works, makes it input_required.
    if ('question' in next) this.ask(task, next.question);
    else void question.then((asked) => this.ask(task, asked));
    this.follow(task);
    return { resultType: 'task', ...this.summary(task) };
  }

  /** tasks/get: how the task stands, with its question or its result once there is one. */
  get(taskId: string): Record<string, unknown> {
    const task = this.find(taskId);
    return {
      ...this.summary(task),
      ...(task.status === 'input_required' && task.question ? { inputRequests: inputRequestsFor(task.question) } : {}),
      ...(task.status === 'completed' && task.result ? { result: task.result } : {}),
      ...(task.status === 'failed' && task.error ? { error: task.error } : {}),
    };
  }

  /** tasks/update: the answer to the question the task waits on. */
  update(taskId: string, inputResponses: Record<string, unknown>): Record<string, unknown> {
    const task = this.find(taskId);
    if (task.status !== 'input_required') {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `task ${taskId} is ${task.status}: it asks nothing now`);
    }
    if (!task.conversation.answer(inputResponses)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `the input responses of task ${taskId} do not answer its question "${task.question?.key}"`,
      );
    }
    task.question = undefined;
    this.touch(task, { status: 'working' });
    void task.conversation.nextQuestion().then((question) => this.ask(task, question));
    return {};
  }

  /** tasks/cancel: cancels the run; a task that ended stays as it ended. */
  cancel(taskId: string): Record<string, unknown> {
    const task = this.find(taskId);
    if (task.status === 'working' || task.status === 'input_required') {
      task.conversation.controller.abort('the client cancelled the task');
      this.touch(task, { status: 'cancelled' });
    }
    return {};
  }

  /** The server stops: runs still going are cancelled (and stored so), timers let go. */
  close(): void {
    for (const task of this.tasks.values()) {
      clearTimeout(task.expiry);
      task.conversation.controller.abort('the server is stopping');
    }
  }

  private find(taskId: string): FlowTask {
    const task = this.tasks.get(taskId);
    if (!task) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `no task has the id "${taskId}": it expired (tasks are kept 24 hours) or was never this server's`,
      );
    }
    return task;
  }

  private follow(task: FlowTask): void {
    void task.conversation.done.then(
      (result) => {
        if (task.status !== 'cancelled') this.touch(task, { status: 'completed', result, statusMessage: 'done' });
      },
      (error: unknown) => {
        if (task.status === 'cancelled') return;
        this.touch(task, {
          status: 'failed',
          error: { code: ProtocolErrorCode.InternalError, message: String(error) },
        });
      },
    );
  }

  private ask(task: FlowTask, question: Question): void {
    if (task.status !== 'working') return;
    task.question = question;
    this.touch(task, { status: 'input_required', statusMessage: `${question.request.nodeId} asks a question` });
  }

  private touch(task: FlowTask, change: Partial<FlowTask>): void {
    Object.assign(task, change, { lastUpdatedAt: new Date().toISOString() });
  }

  private summary(task: FlowTask) {
    return {
      taskId: task.conversation.key,
      status: task.status,
      ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: TASK_TTL_MS,
      pollIntervalMs: POLL_INTERVAL_MS,
    };
  }

  private forget(taskId: string): void {
    this.tasks.delete(taskId);
  }
}
