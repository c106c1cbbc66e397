import { isoTime } from './iso-time';
import { totalUsage } from './pricing';
import type { RunEvent, RunRecord, RunTrigger, StepRecord } from './run';

/**
 * Folds a run's events into the record the store keeps, in memory: the
 * renderer uses it to show a run live, hosts to answer without a re-read.
 */
export class RunRecordBuilder {
  private readonly steps = new Map<string, StepRecord & { startedMs?: number }>();
  /**
   * The record's copy of each step, made again only after an event changed
   * it: a view that shows 200 steps redraws the one that changed.
   */
  private readonly copies = new Map<string, StepRecord>();
  private run: RunRecord | undefined;

  constructor(
    private readonly meta: {
      flowName: string;
      trigger: RunTrigger;
      flowVersion?: number;
      client?: string;
      parentRunId?: string;
      traceparent?: string;
      conversation?: string;
    },
  ) {}

  apply(event: RunEvent): void {
    switch (event.type) {
      case 'run.started':
        this.run = {
          id: event.runId,
          flowId: event.flowId,
          flowName: this.meta.flowName,
          ...(this.meta.flowVersion !== undefined ? { flowVersion: this.meta.flowVersion } : {}),
          trigger: this.meta.trigger,
          ...(this.meta.client !== undefined ? { client: this.meta.client } : {}),
          status: 'running',
          inputs: event.inputs,
          startedAt: isoTime(event.at),
          ...(event.reuse ? { reuse: event.reuse } : {}),
          ...(event.toNodeId ? { toNodeId: event.toNodeId } : {}),
          ...(this.meta.parentRunId !== undefined ? { parentRunId: this.meta.parentRunId } : {}),
          ...(this.meta.traceparent !== undefined ? { traceparent: this.meta.traceparent } : {}),
          ...(this.meta.conversation !== undefined ? { conversation: this.meta.conversation } : {}),
          steps: [],
        };
        return;
      case 'node.started': {
        const step = this.step(event.nodeId, event.iteration);
        step.status = 'running';
        step.attempts = event.attempt;
        step.startedMs ??= event.at;
        step.startedAt ??= isoTime(event.at);
        delete step.error;
        return;
      }
      case 'node.finished': {
        const step = this.step(event.nodeId, event.iteration);
        Object.assign(step, {
          status: 'succeeded',
          attempts: event.attempts,
          output: event.output,
          ...(event.input !== undefined ? { input: event.input } : {}),
          ...(event.usage ? { usage: event.usage } : {}),
          ...(event.messages ? { messages: event.messages } : {}),
          ...(event.retries ? { retries: event.retries } : {}),
          ...(event.toolCalls ? { toolCalls: event.toolCalls } : {}),
          ...(event.childRunId ? { childRunId: event.childRunId } : {}),
          ...(event.warnings ? { warnings: event.warnings } : {}),
          ...(event.passedOver ? { passedOver: true } : {}),
          ...(event.pinned ? { pinned: true } : {}),
        });
        this.finish(step, event.at);
        return;
      }
      case 'node.failed': {
        const step = this.step(event.nodeId, event.iteration);
        Object.assign(step, {
          status: event.willRetry ? 'running' : 'failed',
          attempts: event.attempt,
          error: event.error,
          ...(event.input !== undefined ? { input: event.input } : {}),
          ...(event.messages ? { messages: event.messages } : {}),
          // Live, each retried attempt's error joins the list; the last event carries the whole list.
          ...(event.willRetry ? { retries: [...(step.retries ?? []), event.error] } : {}),
          ...(event.retries ? { retries: event.retries } : {}),
          ...(event.toolCalls ? { toolCalls: event.toolCalls } : {}),
          ...(event.childRunId ? { childRunId: event.childRunId } : {}),
          ...(event.warnings ? { warnings: event.warnings } : {}),
        });
        if (!event.willRetry) this.finish(step, event.at);
        return;
      }
      case 'node.skipped':
        this.finish(
          Object.assign(this.step(event.nodeId, event.iteration), { status: 'skipped' as const }),
          event.at,
          false,
        );
        return;
      case 'node.cancelled':
        this.finish(
          Object.assign(this.step(event.nodeId, event.iteration), {
            status: 'cancelled' as const,
            error: { code: 'CANCELLED', message: 'the run ended before this node finished' },
          }),
          event.at,
        );
        return;
      case 'run.finished':
        if (!this.run) return;
        Object.assign(this.run, {
          status: event.status,
          finishedAt: isoTime(event.at),
          durationMs: event.durationMs,
          ...(event.output ? { output: event.output } : {}),
          ...(event.error ? { error: event.error } : {}),
        });
        return;
      case 'node.tool': {
        // Live: a call appears when it starts and is replaced when it ends.
        const step = this.step(event.nodeId, event.iteration);
        const calls = (step.toolCalls ?? []).filter((c) => c.id !== event.call.id);
        step.toolCalls = [...calls, event.call];
        return;
      }
      case 'node.token':
        return;
    }
  }

  /** A node's step, or its pass of a loop: each pass is a step of its own, as the store keeps them. */
  private step(nodeId: string, iteration = 1): StepRecord & { startedMs?: number } {
    const key = iteration > 1 ? `${nodeId}#${iteration}` : nodeId;
    this.copies.delete(key);
    let step = this.steps.get(key);
    if (!step) {
      step =
        iteration > 1
          ? { nodeId, iteration, status: 'pending', attempts: 0 }
          : { nodeId, status: 'pending', attempts: 0 };
      this.steps.set(key, step);
    }
    return step;
  }

  private finish(step: StepRecord & { startedMs?: number }, at: number, hasDuration = true): void {
    step.finishedAt = isoTime(at);
    if (hasDuration && step.startedMs !== undefined) step.durationMs = at - step.startedMs;
  }

  /** The record so far; complete once `run.finished` was applied. */
  record(): RunRecord {
    if (!this.run) throw new Error('the run has not started');
    const steps = [...this.steps].map(([key, step]) => {
      let copy = this.copies.get(key);
      if (!copy) {
        // The builder's own field stays out of the record.
        const { startedMs, ...rest } = step;
        void startedMs;
        copy = rest;
        this.copies.set(key, copy);
      }
      return copy;
    });
    const usage = totalUsage(steps.map((s) => s.usage));
    return { ...this.run, ...(usage ? { usage } : {}), steps };
  }
}
