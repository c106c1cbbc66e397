import { z } from 'zod';
import { pathProblem, patternProblem } from './matching';

/**
 * Test cases: named inputs saved with a flow, each with expectations on the
 * run's result. They travel with the flow (native export, published
 * versions) and can gate publishing (`testsGatePublish`).
 */

export const EXPECTATION_KINDS = ['equals', 'contains', 'regex', 'json_path', 'json_schema', 'judge'] as const;
export type ExpectationKind = (typeof EXPECTATION_KINDS)[number];

export const ExpectationSchema = z.lazy(() =>
  z.discriminatedUnion('kind', [
    /** The result text (what an MCP client reads) equals this text, spaces at the ends aside. */
    z.object({ kind: z.literal('equals'), value: z.string().max(100_000) }),
    z.object({
      kind: z.literal('contains'),
      value: z.string().min(1, 'say what the result must contain').max(100_000),
    }),
    /** A regular expression found in the result text (RE2: linear time, no backreferences or lookaround). */
    z.object({ kind: z.literal('regex'), pattern: z.string().min(1, 'write a pattern').max(2_000) }),
    /** A plain JSONPath into the result's JSON, and the value it must select. */
    z.object({ kind: z.literal('json_path'), path: z.string().min(1).max(500), equals: z.json() }),
    /** The result's JSON is valid against this JSON Schema. */
    z.object({ kind: z.literal('json_schema'), schema: z.record(z.string(), z.json()) }),
    /** A model reads the result and the criteria and answers yes or no. */
    z.object({
      kind: z.literal('judge'),
      criteria: z.string().regex(/\S/, 'write what the judge checks').max(4_000),
      provider: z.string().max(64).default(''),
      model: z.string().max(200).default(''),
    }),
  ]),
);

export const TestCaseSchema = z.lazy(() =>
  z.object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a test case id is 1–64 letters, digits, _ or -'),
    name: z.string().trim().min(1, 'a test case needs a name').max(200),
    inputs: z.record(z.string(), z.unknown()).default({}),
    expectations: z.array(ExpectationSchema).max(50).default([]),
  }),
);

export type Expectation = z.infer<typeof ExpectationSchema>;
export type TestCase = z.infer<typeof TestCaseSchema>;

/**
 * A new test case after `tests`, with these inputs and no expectation yet:
 * `case_<n>` under the first free number, named `name` or `Case <n>`.
 */
export function nextTestCase(tests: readonly TestCase[], inputs: Record<string, unknown>, name?: string): TestCase {
  const taken = new Set(tests.map((t) => t.id));
  let n = tests.length + 1;
  while (taken.has(`case_${n}`)) n++;
  return { id: `case_${n}`, name: name?.trim().slice(0, 200) || `Case ${n}`, inputs, expectations: [] };
}

/** A problem with one expectation that its schema cannot see: a pattern or path that cannot be used. */
export interface TestCaseProblem {
  field: string;
  message: string;
}

/** What keeps each test case from being checked as written; empty when all can. */
export function testCaseProblems(tests: readonly TestCase[]): TestCaseProblem[] {
  const problems: TestCaseProblem[] = [];
  const ids = new Set<string>();
  tests.forEach((test, t) => {
    if (ids.has(test.id)) problems.push({ field: `tests.${t}.id`, message: `two test cases have the id "${test.id}"` });
    ids.add(test.id);
    test.expectations.forEach((expectation, e) => {
      const field = `tests.${t}.expectations.${e}`;
      const problem =
        expectation.kind === 'regex'
          ? patternProblem(expectation.pattern)
          : expectation.kind === 'json_path'
            ? pathProblem(expectation.path)
            : undefined;
      if (problem) problems.push({ field, message: `test case "${test.name}": ${problem}` });
    });
  });
  return problems;
}

/** One line saying what an expectation asks, for tables and messages. */
export function describeExpectation(expectation: Expectation): string {
  switch (expectation.kind) {
    case 'equals':
      return `equals ${JSON.stringify(expectation.value)}`;
    case 'contains':
      return `contains ${JSON.stringify(expectation.value)}`;
    case 'regex':
      return `matches /${expectation.pattern}/`;
    case 'json_path':
      return `${expectation.path} equals ${JSON.stringify(expectation.equals)}`;
    case 'json_schema':
      return 'fits the JSON schema';
    case 'judge':
      return `a model judges: ${expectation.criteria}`;
  }
}

/** How one test case did. `error`: the run or an expectation could not be checked at all. */
export interface TestCaseResult {
  id: string;
  name: string;
  status: 'passed' | 'failed' | 'error';
  runId?: string;
  runStatus?: string;
  durationMs: number;
  /** One line per expectation that did not hold (or could not be checked), saying why. */
  failures: string[];
}

export interface TestRunSummary {
  flowId: string;
  passed: number;
  failed: number;
  results: TestCaseResult[];
}
