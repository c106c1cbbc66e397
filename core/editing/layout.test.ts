import { describe, expect, it } from 'vitest';
import { FlowSchema } from '../model/flow';
import { buildFlow, input, output, template } from '../../tests/helpers/flow-builder';
import { layOutIfNeeded, layoutReason, layoutSelected } from './layout';
import { clearOf } from './placement';

const at = (x: number, y: number) => ({ position: { x, y } });
/** input feeds two drafts that meet in the result: a flow that branches. */
const branching = (positions: ({ position: { x: number; y: number } } | object)[]) =>
  buildFlow({
    nodes: [input(), template('a', 'A'), template('b', 'B'), output('{{nodes.a.output}} {{nodes.b.output}}')].map(
      (node, i) => ({ ...node, ...positions[i] }),
    ),
    edges: ['input>a', 'input>b', 'a>result', 'b>result'],
  });

describe('layoutReason (issue 17, point 4)', () => {
  it('asks for a layout when positions are missing, cards overlap, or a branching flow is in one row', () => {
    const flow = branching([at(0, 0), {}, at(600, 0), at(900, 0)]);
    expect(layoutReason(flow.nodes, flow.edges ?? [])).toBe('positions were missing');
    const stacked = branching([at(0, 0), at(300, 0), at(310, 20), at(900, 0)]);
    expect(layoutReason(stacked.nodes, stacked.edges ?? [])).toBe('nodes overlapped');
    const row = branching([at(0, 100), at(300, 100), at(600, 100), at(900, 100)]);
    expect(layoutReason(row.nodes, row.edges ?? [])).toBe('a branching flow was all in one row');
  });

  it('leaves alone a chain in a row and a branching flow that shows its branches', () => {
    const chain = buildFlow({
      nodes: [input(), template('a', 'A'), output('{{nodes.a.output}}')].map((node, i) => ({
        ...node,
        ...at(i * 300, 0),
      })),
      edges: ['input>a', 'a>result'],
    });
    expect(layoutReason(chain.nodes, chain.edges ?? [])).toBeUndefined();
    const shown = branching([at(0, 100), at(300, 0), at(300, 200), at(600, 100)]);
    expect(layoutReason(shown.nodes, shown.edges ?? [])).toBeUndefined();
  });
});

describe('layOutIfNeeded', () => {
  it('lays a branching flow out so that it looks branching: each node right of its inputs, branches one above the other', async () => {
    const flow = FlowSchema.parse(branching([at(0, 100), at(300, 100), at(600, 100), at(900, 100)]));
    const { flow: laidOut, reason } = await layOutIfNeeded(flow);
    expect(reason).toBe('a branching flow was all in one row');
    const position = (id: string) => laidOut.nodes.find((n) => n.id === id)?.position ?? { x: NaN, y: NaN };
    expect(position('a').x).toBeGreaterThan(position('input').x);
    expect(position('a').x).toBe(position('b').x);
    expect(Math.abs(position('a').y - position('b').y)).toBeGreaterThanOrEqual(90);
    expect(position('result').x).toBeGreaterThan(position('a').x);
    // Nothing but positions changes.
    expect(laidOut.nodes.map(({ position: _, ...rest }) => rest)).toEqual(
      flow.nodes.map(({ position: _, ...rest }) => rest),
    );
  });

  it('returns a flow whose positions show its shape as it is', async () => {
    const flow = FlowSchema.parse(branching([at(0, 100), at(300, 0), at(300, 200), at(600, 100)]));
    expect(await layOutIfNeeded(flow)).toEqual({ flow });
  });
});

describe('layoutSelected (a selection tidied up, as n8n’s)', () => {
  it('lays out the chosen nodes among themselves from where they were, and moves no other', async () => {
    const nodes = [
      { id: 'input', position: { x: 0, y: 0 } },
      { id: 'a', position: { x: 700, y: 500 } },
      { id: 'b', position: { x: 300, y: 900 } },
      { id: 'c', position: { x: 320, y: 1400 } },
      { id: 'result', position: { x: 1100, y: 0 } },
    ];
    const edges = [
      { source: 'input', target: 'a' },
      { source: 'a', target: 'b' },
      { source: 'a', target: 'c' },
      { source: 'b', target: 'result' },
    ];
    const moved = await layoutSelected(nodes, edges, new Set(['a', 'b', 'c']));
    const at = Object.fromEntries(moved.map((m) => [m.id, m.position]));
    expect(Object.keys(at).sort()).toEqual(['a', 'b', 'c']);
    // The layered layout (a, then b and c side by side after it), its corner where the three began.
    expect(Math.min(...moved.map((m) => m.position.x))).toBe(300);
    expect(Math.min(...moved.map((m) => m.position.y))).toBe(500);
    expect(at.b?.x).toBe(at.c?.x);
    expect(at.b?.x).toBeGreaterThan((at.a?.x ?? 0) + 220);
    expect(at.b?.y).not.toBe(at.c?.y);
    expect(await layoutSelected(nodes, edges, new Set(['a']))).toEqual([]);
  });

  it('moves the tidied selection as one, a row down, where it would cover a node it left alone (clearOf)', async () => {
    // a, b and c stacked in a column; laid out they make a row, whose middle lands on `result`.
    const nodes = [
      { id: 'input', position: { x: 0, y: 0 } },
      { id: 'a', position: { x: 300, y: 0 } },
      { id: 'b', position: { x: 300, y: 150 } },
      { id: 'c', position: { x: 300, y: 300 } },
      { id: 'result', position: { x: 700, y: 0 } },
    ];
    const edges = ['input>a', 'a>b', 'b>c', 'c>result'].map((e) => {
      const [source = '', target = ''] = e.split('>');
      return { source, target };
    });
    const chosen = new Set(['a', 'b', 'c']);
    const others = nodes.filter((n) => !chosen.has(n.id));
    const laid = await layoutSelected(nodes, edges, chosen);
    const covers = (moved: { position: { x: number; y: number } }[]) =>
      moved.some((m) =>
        others.some(
          (o) => Math.abs(m.position.x - o.position.x) < 220 + 40 && Math.abs(m.position.y - o.position.y) < 90 + 40,
        ),
      );
    expect(covers(laid)).toBe(true);
    const cleared = clearOf(others, laid);
    expect(covers(cleared)).toBe(false);
    // The same shape, one row (140) lower: the cards keep their places among themselves.
    expect(cleared.map((m) => [m.id, m.position.x, m.position.y - 140])).toEqual(
      laid.map((m) => [m.id, m.position.x, m.position.y]),
    );
    // Clear already, it stays where it was laid out.
    expect(clearOf([{ position: { x: 0, y: 2000 } }], laid)).toEqual(laid);
  });
});
