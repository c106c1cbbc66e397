import { formatCost } from './pricing';
import type { RunRecord, StepRecord } from './run';
import { stringifyValue } from './template';

/** The ways `runs show --format` prints a run: seed 003's summary and markdown representation. */
export const RUN_REPORT_FORMATS = ['text', 'summary', 'markdown'] as const;
export type RunReportFormat = (typeof RUN_REPORT_FORMATS)[number];

const duration = (ms: number | undefined) =>
  ms === undefined ? '' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;

function stepFacts(step: StepRecord): string {
  const facts = [step.status, duration(step.durationMs)];
  if (step.attempts > 1) facts.push(`${step.attempts} attempts`);
  if (step.toolCalls?.length) facts.push(`${step.toolCalls.length} tool call${step.toolCalls.length === 1 ? '' : 's'}`);
  if (step.usage?.cost !== undefined) facts.push(formatCost(step.usage.cost));
  return facts.filter(Boolean).join(', ');
}

/** A step's node, and its pass when a loop ran it again. */
export const stepName = (step: StepRecord): string =>
  step.iteration ? `${step.nodeId} (pass ${step.iteration})` : step.nodeId;

/** One line for the run, one per step: what a list or a notification shows. */
export function runSummary(run: RunRecord): string {
  const head = `${run.flowName}: ${run.status} in ${duration(run.durationMs) || '…'} (${run.steps.length} steps)${run.error ? `, ${run.error.code}${run.error.nodeId ? ` at ${run.error.nodeId}` : ''}` : ''}`;
  const summary = Object.entries(run.output?.summary ?? {}).map(
    ([label, value]) => `${label}: ${stringifyValue(value)}`,
  );
  return [
    head,
    ...summary,
    ...run.steps.map((s) => `- ${stepName(s)}: ${stepFacts(s)}${s.error ? `: ${s.error.code}` : ''}`),
  ].join('\n');
}

/** A fenced block for a value: text as it is, anything else as JSON. */
function block(value: unknown): string {
  const text = stringifyValue(value);
  const fence = text.includes('```') ? '~~~~' : '```';
  return `${fence}${typeof value === 'string' ? '' : 'json'}\n${typeof value === 'string' ? text : JSON.stringify(value, null, 2)}\n${fence}`;
}

/** The run as a Markdown document: inputs, each step's input, output, error and tool calls, the result. */
export function runMarkdown(run: RunRecord): string {
  const lines = [
    `# ${run.flowName}`,
    '',
    `Run \`${run.id}\`, ${run.status}, started ${run.startedAt}${run.durationMs !== undefined ? `, took ${duration(run.durationMs)}` : ''} (${run.trigger}).`,
    '',
    '## Inputs',
    '',
    block(run.inputs),
  ];
  const summary = Object.entries(run.output?.summary ?? {});
  if (summary.length > 0) {
    lines.push('', '## Summary', '', ...summary.map(([label, value]) => `- **${label}**: ${stringifyValue(value)}`));
  }
  if (run.error)
    lines.push(
      '',
      `**Error** \`${run.error.code}\`${run.error.nodeId ? ` at \`${run.error.nodeId}\`` : ''}: ${run.error.message}`,
    );
  for (const step of run.steps) {
    lines.push('', `## ${stepName(step)}: ${stepFacts(step)}`);
    if (step.input !== undefined) lines.push('', '**Input**', '', block(step.input));
    for (const call of step.toolCalls ?? []) {
      lines.push(
        '',
        `**Tool call** \`${call.server ? `${call.server}/` : ''}${call.tool}\`${call.durationMs !== undefined ? ` (${duration(call.durationMs)})` : ''}`,
        '',
        block(call.arguments),
      );
      if (call.error) lines.push('', `Error \`${call.error.code}\`: ${call.error.message}`);
      else if (call.result !== undefined) lines.push('', block(call.result));
    }
    if (step.output !== undefined) lines.push('', '**Output**', '', block(step.output));
    if (step.error) lines.push('', `**Error** \`${step.error.code}\`: ${step.error.message}`);
  }
  if (run.output) {
    lines.push('', '## Result', '');
    if (run.output.kind === 'structured') lines.push(block(run.output.data));
    else for (const value of run.output.values) lines.push(value.text, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
