import { FlowbenchError, toFlowbenchError } from '../model/errors';
import type { Flow } from '../model/flow';
import type { LlmPort } from '../model/llm';
import { loadPathSelect, loadPatternTest } from '../model/matching';
import type { RunRecord, RunTrigger } from '../model/run';
import { stringifyValue } from '../model/template';
import {
  describeExpectation,
  type Expectation,
  type TestCase,
  type TestCaseResult,
  type TestRunSummary,
} from '../model/test-cases';
import { resultTexts, toolResult } from '../model/tool-result';
import { schemaProblems } from '../model/json-schema';
import type { RunService } from './run-service';
import { cutText } from '../model/cut-text';

/** Test cases run at once, like a CI job's matrix: enough to overlap model calls, few enough for a local model. */
export const TEST_CONCURRENCY = 4;

/** What the expectations read of a run: the text an MCP client gets, and the JSON in it (if any). */
interface Observed {
  text: string;
  json: unknown;
}

function observe(flow: Flow, record: RunRecord): Observed {
  const result = toolResult(flow, record);
  if (result.structuredContent)
    return { text: JSON.stringify(result.structuredContent), json: result.structuredContent };
  // The texts themselves: an image in one is still its data: URL there, as the flow made it.
  const text = result.isError
    ? result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n\n')
    : resultTexts(flow, record).join('\n\n');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { text, json };
}

/** A case not begun when the run of the cases was cancelled. */
function notRun(test: TestCase, reason: unknown): TestCaseResult {
  const why = toFlowbenchError(reason);
  return { id: test.id, name: test.name, status: 'error', durationMs: 0, failures: [`not run: ${why.message}`] };
}

const JUDGE_SYSTEM =
  'You check the answer of a program against criteria. Reply with YES or NO on the first line, then one sentence saying why.';

/** Runs a flow's test cases and checks each expectation against the run's result. */
export class TestService {
  constructor(
    private readonly runner: RunService,
    private readonly llm: () => LlmPort,
  ) {}

  /** Every test case (or those named in `only`), TEST_CONCURRENCY at a time; the runs are stored with trigger `test`. */
  async runAll(
    flow: Flow,
    options: { only?: readonly string[]; signal?: AbortSignal; trigger?: RunTrigger } = {},
  ): Promise<TestRunSummary> {
    const cases = options.only ? flow.tests.filter((t) => options.only?.includes(t.id)) : flow.tests;
    const results: TestCaseResult[] = new Array<TestCaseResult>(cases.length);
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const test = cases[index] as TestCase;
        // Once cancelled, the cases not begun yet are not run: each says so rather than adding a cancelled run.
        results[index] = options.signal?.aborted
          ? notRun(test, options.signal.reason)
          : await this.runCase(flow, test, options);
      }
    };
    await Promise.all(Array.from({ length: Math.min(TEST_CONCURRENCY, cases.length) }, worker));
    return {
      flowId: flow.id,
      passed: results.filter((r) => r.status === 'passed').length,
      failed: results.filter((r) => r.status !== 'passed').length,
      results,
    };
  }

  /**
   * For a flow set to publish only when its test cases pass: runs them and
   * throws TESTS_FAILED naming each case that did not pass (a gate with no
   * case to pass refuses too: it would let anything through). Returns the
   * summary, or undefined for a flow without the gate.
   */
  async gatePublish(flow: Flow): Promise<TestRunSummary | undefined> {
    if (!flow.testsGatePublish) return undefined;
    if (flow.tests.length === 0) {
      throw new FlowbenchError(
        'TESTS_FAILED',
        `"${flow.name}" publishes only when its test cases pass, and it has none: add one, or turn the setting off`,
        { failed: [] },
      );
    }
    const summary = await this.runAll(flow);
    const failed = summary.results.filter((r) => r.status !== 'passed');
    if (failed.length > 0) {
      const named = failed.map((r) => `"${r.name}" (${r.failures[0] ?? r.status})`).join('; ');
      throw new FlowbenchError(
        'TESTS_FAILED',
        `not published: ${failed.length} of ${summary.results.length} test case${summary.results.length === 1 ? '' : 's'} failed: ${named}`,
        { failed: failed.map(({ id, name, status, failures, runId }) => ({ id, name, status, failures, runId })) },
      );
    }
    return summary;
  }

  private async runCase(
    flow: Flow,
    test: TestCase,
    options: { signal?: AbortSignal; trigger?: RunTrigger },
  ): Promise<TestCaseResult> {
    const started = Date.now();
    const base = { id: test.id, name: test.name };
    let record: RunRecord;
    try {
      record = await this.runner.run({
        flow,
        inputs: test.inputs,
        trigger: options.trigger ?? 'test',
        client: `test case ${test.name}`,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      // Inputs the flow refuses, an invalid flow: the case cannot run as written.
      const failure = toFlowbenchError(error);
      return {
        ...base,
        status: 'error',
        durationMs: Date.now() - started,
        failures: [`${failure.code}: ${failure.message}`],
      };
    }
    const run = { runId: record.id, runStatus: record.status };
    if (record.status !== 'succeeded') {
      const why = record.error ? `${record.error.code}: ${record.error.message}` : 'no detail';
      return {
        ...base,
        ...run,
        status: 'failed',
        durationMs: Date.now() - started,
        failures: [`the run ${record.status}: ${why}`],
      };
    }
    const observed = observe(flow, record);
    const failures: string[] = [];
    let hasError = false;
    for (const expectation of test.expectations) {
      try {
        const failure = await this.check(expectation, observed, options.signal);
        if (failure) failures.push(`${describeExpectation(expectation)}: ${failure}`);
      } catch (error) {
        hasError = true;
        failures.push(`${describeExpectation(expectation)}: could not be checked: ${toFlowbenchError(error).message}`);
      }
    }
    const status = hasError ? 'error' : failures.length > 0 ? 'failed' : 'passed';
    return { ...base, ...run, status, durationMs: Date.now() - started, failures };
  }

  /** Why the expectation does not hold, or undefined when it does. Throws when it cannot be checked. */
  private async check(expectation: Expectation, observed: Observed, signal?: AbortSignal): Promise<string | undefined> {
    const shown = (text: string) => JSON.stringify(text.length > 200 ? `${cutText(text, 199)}…` : text);
    switch (expectation.kind) {
      case 'equals':
        return observed.text.trim() === expectation.value.trim() ? undefined : `got ${shown(observed.text)}`;
      case 'contains':
        return observed.text.includes(expectation.value) ? undefined : `got ${shown(observed.text)}`;
      case 'regex': {
        const test = await loadPatternTest();
        return test(expectation.pattern, observed.text) ? undefined : `got ${shown(observed.text)}`;
      }
      case 'json_path': {
        if (observed.json === undefined) return `the result is not JSON: ${shown(observed.text)}`;
        const selected = (await loadPathSelect())(observed.json, expectation.path);
        return JSON.stringify(selected) === JSON.stringify(expectation.equals)
          ? undefined
          : `selected ${selected === undefined ? 'nothing' : JSON.stringify(selected)}`;
      }
      case 'json_schema': {
        if (observed.json === undefined) return `the result is not JSON: ${shown(observed.text)}`;
        const problems = await schemaProblems(expectation.schema, observed.json);
        return problems.length === 0 ? undefined : problems.join('; ');
      }
      case 'judge': {
        const answer = await this.llm().generate({
          provider: expectation.provider,
          model: expectation.model,
          system: JUDGE_SYSTEM,
          prompt: `Criteria: ${expectation.criteria}\n\nAnswer to check:\n${observed.text}`,
          temperature: 0,
          outputFormat: 'text',
          signal: signal ?? new AbortController().signal,
        });
        const verdict = answer.text.trim();
        if (/^\W*yes\b/i.test(verdict)) return undefined;
        if (/^\W*no\b/i.test(verdict)) return `the judge said ${shown(verdict)}`;
        throw new Error(`the judge answered neither yes nor no: ${shown(stringifyValue(verdict))}`);
      }
    }
  }
}
