import { describe, expect, it } from 'vitest';
import { buildFlow, input, output, template } from '../../tests/helpers/flow-builder';
import { dataUrl } from './data-urls';
import { FlowSchema } from './flow';
import type { RunRecord } from './run';
import { runViewData } from './run-view';

const flow = FlowSchema.parse({
  ...buildFlow({ id: 'f', nodes: [input(), template('show', 'x'), output('{{nodes.show.output}}')], edges: [] }),
  name: 'F',
});
const record = (output: unknown): RunRecord => ({
  id: 'r',
  flowId: 'f',
  flowName: 'F',
  trigger: 'mcp',
  status: 'succeeded',
  inputs: {},
  startedAt: '2026-12-02T00:00:00.000Z',
  steps: [{ nodeId: 'show', status: 'succeeded', attempts: 1, output }],
});
const shown = (output: unknown) => runViewData(flow, record(output)).nodes.find((n) => n.id === 'show')?.output;

describe('the run view', () => {
  it('cuts a long text short but sends a picture whole, as a cut one would be no picture; a very large one is named', () => {
    expect(shown('a'.repeat(3000))).toBe(`${'a'.repeat(2000)}…`);
    const picture = dataUrl('image/png', 'A'.repeat(4000));
    expect(shown(picture)).toBe(picture);
    expect(shown(dataUrl('image/png', 'A'.repeat(1_400_000)))).toBe(
      '[image/png picture, 1025 KB: too large to show here]',
    );
    // An SVG is text (it can carry script): cut as text.
    expect(shown(dataUrl('image/svg+xml', 'A'.repeat(3000)))).toMatch(/…$/);
  });
});
