import { describe, expect, it } from 'vitest';
import { FlowSchema } from '../model/flow';
import { findInFlow, patternProblem } from './find';

const flow = FlowSchema.parse({
  id: 'find',
  name: 'Find',
  tool: { name: 'find' },
  nodes: [
    { id: 'input', type: 'input', position: { x: 0, y: 0 } },
    { id: 'classify', type: 'llm', label: 'Classify ticket', position: { x: 300, y: 0 }, config: { prompt: 'x' } },
    {
      id: 'draft',
      type: 'template',
      label: 'Reply',
      position: { x: 300, y: 200 },
      config: { template: 'Dear customer, about your ticket {{inputs.topic}}: thank you for writing to us today.' },
    },
    { id: 'ticket_log', type: 'template', label: 'Log', position: { x: 0, y: 200 }, config: { template: 'log' } },
    { id: 'answer', type: 'output', position: { x: 600, y: 0 } },
  ],
  notes: [{ id: 'why', text: 'Each ticket is classified first', position: { x: 0, y: -300 } }],
});
const typeLabel = (type: string) => ({ llm: 'LLM', template: 'Template', input: 'Input' })[type] ?? type;

describe('findInFlow', () => {
  it('finds by label, then id, then settings, then notes; each once, in reading order within a kind', () => {
    const found = findInFlow(flow, 'TICKET', typeLabel);
    expect(found.map((m) => [m.kind, m.id, m.field])).toEqual([
      ['node', 'classify', 'label'],
      ['node', 'ticket_log', 'id'],
      ['node', 'draft', 'template'],
      ['note', 'why', 'text'],
    ]);
    expect(found[0]?.excerpt).toBe('Classify ticket');
  });

  it('shows the words with the text around them, cut where long', () => {
    const [match] = findInFlow(flow, 'thank you', typeLabel);
    expect(match).toMatchObject({ id: 'draft', field: 'template' });
    expect(match?.excerpt).toBe('…your ticket {{inputs.topic}}: thank you for writing to us today.');
  });

  it('finds a node by its type and by a nested setting', () => {
    expect(findInFlow(flow, 'template', typeLabel).map((m) => m.id)).toEqual(['ticket_log', 'draft']);
    const nested = FlowSchema.parse({
      ...flow,
      nodes: [
        {
          id: 'out',
          type: 'output',
          position: { x: 0, y: 0 },
          config: { returnValues: [{ id: 'r', text: 'the answer is {{nodes.x.output}}' }] },
        },
      ],
    });
    expect(findInFlow(nested, 'answer is', typeLabel)).toEqual([
      { kind: 'node', id: 'out', field: 'returnValues.0.text', excerpt: 'the answer is {{nodes.x.output}}' },
    ]);
  });

  it('matches case and whole words when asked', () => {
    expect(findInFlow(flow, 'Ticket', typeLabel, { matchCase: true }).map((m) => m.id)).toEqual([]);
    expect(findInFlow(flow, 'ticket', typeLabel, { matchCase: true }).map((m) => m.id)).toEqual([
      'classify',
      'ticket_log',
      'draft',
      'why',
    ]);
    // `ticket_log` is one word (an underscore is part of it); `{{inputs` still finds `{{inputs.topic}}`.
    expect(findInFlow(flow, 'ticket', typeLabel, { wholeWord: true }).map((m) => m.id)).toEqual([
      'classify',
      'draft',
      'why',
    ]);
    expect(findInFlow(flow, 'ticke', typeLabel, { wholeWord: true })).toEqual([]);
    expect(findInFlow(flow, '{{inputs', typeLabel, { wholeWord: true }).map((m) => m.id)).toEqual(['draft']);
  });

  it('looks for a regular expression when asked, and says why one is not valid', () => {
    // `\b`: `ticket_log` goes on with a word character.
    expect(findInFlow(flow, 'tick(et|le)\\b', typeLabel, { regex: true }).map((m) => m.id)).toEqual([
      'classify',
      'draft',
      'why',
    ]);
    expect(findInFlow(flow, '^each', typeLabel, { regex: true }).map((m) => m.id)).toEqual(['why']);
    // Empty matches find nothing.
    expect(findInFlow(flow, 'q*', typeLabel, { regex: true })).toEqual([]);
    expect(patternProblem('(', { regex: true })).toMatch(/Invalid regular expression/);
    expect(patternProblem('(', {})).toBeUndefined();
    expect(() => findInFlow(flow, '(', typeLabel, { regex: true })).toThrow(SyntaxError);
  });

  it('finds nothing for blank words or words nowhere', () => {
    expect(findInFlow(flow, '  ', typeLabel)).toEqual([]);
    expect(findInFlow(flow, 'refund', typeLabel)).toEqual([]);
  });
});
