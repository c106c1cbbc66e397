import { describe, expect, it } from 'vitest';
import { buildAdjacency, findCycles, topologicalOrder, wouldCreateCycle } from './graph';

describe('graph', () => {
  const diamond = buildAdjacency(
    ['a', 'b', 'c', 'd'],
    [
      { source: 'a', target: 'b' },
      { source: 'a', target: 'c' },
      { source: 'b', target: 'd' },
      { source: 'c', target: 'd' },
    ],
  );

  it('orders a diamond', () => {
    expect(topologicalOrder(diamond)).toEqual({ order: ['a', 'b', 'c', 'd'], blocked: [] });
  });

  it('refuses edges that would close a cycle', () => {
    expect(wouldCreateCycle(diamond, 'd', 'a')).toBe(true);
    expect(wouldCreateCycle(diamond, 'b', 'b')).toBe(true);
    expect(wouldCreateCycle(diamond, 'b', 'c')).toBe(false);
  });

  it('finds each cycle, also behind a long chain', () => {
    const ids = Array.from({ length: 6000 }, (_, i) => `n${i}`);
    const edges = ids.slice(1).map((id, i) => ({ source: `n${i}`, target: id }));
    const adjacency = buildAdjacency(ids, [...edges, { source: 'n5999', target: 'n0' }]);
    const { blocked } = topologicalOrder(adjacency);
    expect(blocked).toHaveLength(6000);
    const cycles = findCycles(adjacency, blocked);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(6001);
  });
});
