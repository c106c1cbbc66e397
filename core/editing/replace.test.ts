import { describe, expect, it } from 'vitest';
import { applyChangeSet, ChangeSetSchema } from '../model/change-set';
import { FlowSchema, type Flow } from '../model/flow';
import { matchOf, substitute, withCaseOf } from './replacement-text';
import { replaceInFlow } from './replace';

const flow = FlowSchema.parse({
  id: 'replace',
  name: 'Replace',
  tool: { name: 'replace' },
  nodes: [
    { id: 'input', type: 'input', position: { x: 0, y: 0 } },
    {
      id: 'classify',
      type: 'llm',
      label: 'Classify Ticket',
      position: { x: 300, y: 0 },
      config: { prompt: 'Classify the ticket. A TICKET is one message.', model: 'ticket-model', outputFormat: 'text' },
    },
    {
      id: 'route',
      type: 'condition',
      position: { x: 600, y: 0 },
      config: {
        rules: [{ value: '{{nodes.classify.output}} ticket', path: '$', operator: 'contains', operand: 'ticket' }],
      },
    },
    { id: 'ticket_log', type: 'template', label: 'Log', position: { x: 0, y: 200 }, config: { template: 'log' } },
    {
      id: 'answer',
      type: 'output',
      position: { x: 900, y: 0 },
      config: { returnValues: [{ id: 'r', text: 'Your ticket: {{nodes.classify.output}}' }] },
    },
  ],
  notes: [{ id: 'why', text: 'Each ticket is classified first', position: { x: 0, y: -300 } }],
});

const applied = (before: Flow, changes: unknown) => applyChangeSet(before, ChangeSetSchema.parse(changes));
const node = (f: Flow, id: string) => f.nodes.find((n) => n.id === id)!;

describe('replaceInFlow', () => {
  it('replaces every occurrence, ignoring case, in labels, text settings, list items and notes, as one edit', () => {
    const result = replaceInFlow(flow, ' ticket ', 'request');
    expect(result.count).toBe(7);
    expect([result.nodes, result.notes]).toEqual([3, 1]);
    const after = applied(flow, result.changes);
    expect(node(after, 'classify').label).toBe('Classify request');
    expect(node(after, 'classify').config).toMatchObject({
      prompt: 'Classify the request. A request is one message.',
      model: 'request-model',
      outputFormat: 'text',
    });
    // The rule's value is text; its operand is JSON and stays.
    expect(node(after, 'route').config.rules).toEqual([
      { value: '{{nodes.classify.output}} request', path: '$', operator: 'contains', operand: 'ticket' },
    ]);
    expect(node(after, 'answer').config.returnValues).toEqual([
      { id: 'r', text: 'Your request: {{nodes.classify.output}}' },
    ]);
    expect(after.notes[0]?.text).toBe('Each request is classified first');
    // An id is not text to replace: other nodes refer to it. The node is named, not skipped quietly.
    expect(node(after, 'ticket_log').id).toBe('ticket_log');
    expect(result.leftAlone).toEqual([
      { kind: 'node', id: 'route', reason: 'the words are also in its id, its type or a setting that is not text' },
      {
        kind: 'node',
        id: 'ticket_log',
        reason: 'the words are only in its id, its type or a setting that is not text',
      },
    ]);
  });

  it('limits Replace to the one node or note given', () => {
    const result = replaceInFlow(flow, 'ticket', 'case', { only: { kind: 'note', id: 'why' } });
    expect([result.count, result.nodes, result.notes]).toEqual([1, 0, 1]);
    expect(result.changes).toEqual({ flow: { notes: [{ ...flow.notes[0], text: 'Each case is classified first' }] } });
    const one = replaceInFlow(flow, 'ticket', 'case', { only: { kind: 'node', id: 'answer' } });
    expect(one.changes).toEqual({
      updateNodes: [
        {
          id: 'answer',
          config: {
            ...node(flow, 'answer').config,
            returnValues: [{ id: 'r', text: 'Your case: {{nodes.classify.output}}' }],
          },
        },
      ],
    });
  });

  it('does not count what the replacement itself holds as words left behind', () => {
    const result = replaceInFlow(flow, 'ticket', 'tickets', { only: { kind: 'node', id: 'classify' } });
    expect(result.count).toBe(4);
    expect(result.leftAlone).toEqual([]);
  });

  it('leaves the words in {{references}} as they are (ids stay, so must the references to them), and says so', () => {
    const result = replaceInFlow(flow, 'classify', 'sort');
    const after = applied(flow, result.changes);
    expect(node(after, 'classify').label).toBe('sort Ticket');
    expect(node(after, 'classify').config.prompt).toBe('sort the ticket. A TICKET is one message.');
    expect(node(after, 'route').config.rules).toEqual(node(flow, 'route').config.rules);
    expect(node(after, 'answer').config).toEqual(node(flow, 'answer').config);
    expect(result.leftAlone).toEqual([
      { kind: 'node', id: 'classify', reason: 'the words are also in its id, its type or a setting that is not text' },
      { kind: 'node', id: 'route', reason: 'the words are only in {{references}}, which name ids' },
      { kind: 'node', id: 'answer', reason: 'the words are only in {{references}}, which name ids' },
    ]);
  });

  it('inserts what was typed as typed, and finds the words as typed (no patterns)', () => {
    const dollars = replaceInFlow(flow, 'ticket.', '$& $1 $$');
    expect(applied(flow, dollars.changes).nodes[1]?.config.prompt).toBe(
      'Classify the $& $1 $$ A TICKET is one message.',
    );
    expect(replaceInFlow(flow, '.*', 'x').count).toBe(0);
  });

  it('leaves a node as it is, and says why, when its settings would no longer be valid', () => {
    const long = 'x'.repeat(10_001);
    const result = replaceInFlow(flow, 'ticket', long, { only: { kind: 'node', id: 'route' } });
    expect(result.changes).toBeUndefined();
    expect(result.leftAlone).toEqual([
      {
        kind: 'node',
        id: 'route',
        reason: expect.stringMatching(/^its settings would not be valid: rules\.0\.value: /),
      },
    ]);
    const label = replaceInFlow(flow, 'classify', 'y'.repeat(300), { only: { kind: 'node', id: 'classify' } });
    expect(label.leftAlone[0]?.reason).toBe('its label would be over 200 characters');
  });

  it('matches case and whole words when asked, and keeps the capitals of what it replaces', () => {
    const cased = replaceInFlow(flow, 'TICKET', 'REQUEST', { matchCase: true });
    expect(cased.count).toBe(1);
    expect(node(applied(flow, cased.changes), 'classify').config.prompt).toBe(
      'Classify the ticket. A REQUEST is one message.',
    );
    // `tickets` and `Ticketing` are longer words; the comma is not part of one.
    const words = FlowSchema.parse({
      ...flow,
      notes: [{ id: 'n', text: 'tickets, ticket, Ticketing', position: { x: 0, y: 0 } }],
    });
    const whole = replaceInFlow(words, 'ticket', 'case', { wholeWord: true, only: { kind: 'note', id: 'n' } });
    expect(applied(words, whole.changes).notes[0]?.text).toBe('tickets, case, Ticketing');

    const kept = replaceInFlow(flow, 'ticket', 'request', {
      preserveCase: true,
      only: { kind: 'node', id: 'classify' },
    });
    const after = node(applied(flow, kept.changes), 'classify');
    expect(after.label).toBe('Classify Request');
    expect(after.config.prompt).toBe('Classify the request. A REQUEST is one message.');
  });

  it('replaces a regular expression with its groups filled in, seeing the whole text, never in references', () => {
    const only = (id: string) => ({ only: { kind: 'node' as const, id } });
    const grouped = replaceInFlow(flow, '(\\w+) TICKET', '$1 case ($&, $$)', {
      regex: true,
      matchCase: true,
      ...only('classify'),
    });
    expect(node(applied(flow, grouped.changes), 'classify').config.prompt).toBe(
      'Classify the ticket. A case (A TICKET, $) is one message.',
    );
    const named = replaceInFlow(flow, '(?<word>ticket)-model', '$<word>s', { regex: true, ...only('classify') });
    expect(node(applied(flow, named.changes), 'classify').config.model).toBe('tickets');
    // ^ is the start of the field, not the text after a reference.
    const anchored = replaceInFlow(flow, '^your', 'My', { regex: true, ...only('answer') });
    expect(node(applied(flow, anchored.changes), 'answer').config.returnValues).toEqual([
      { id: 'r', text: 'My ticket: {{nodes.classify.output}}' },
    ]);
    expect(replaceInFlow(flow, '^\\s*ticket', 'x', { regex: true, ...only('route') }).count).toBe(0);
    const inReference = replaceInFlow(flow, 'classify\\.output', 'x', { regex: true, ...only('route') });
    expect([inReference.count, inReference.leftAlone[0]?.reason]).toEqual([
      0,
      'the words are only in {{references}}, which name ids',
    ]);
    // A match across a reference's edge is kept too, and said.
    const across = replaceInFlow(flow, 'output}} ticket', 'x', only('route'));
    expect([across.count, across.leftAlone[0]?.reason]).toEqual([
      0,
      'the words are only in {{references}}, which name ids',
    ]);
    // Empty matches replace nothing.
    expect(replaceInFlow(flow, 'q*', 'x', { regex: true })).toMatchObject({
      changes: undefined,
      count: 0,
      leftAlone: [],
    });
  });

  it('fills in groups as JavaScript and VS Code do', () => {
    // The arguments String.replace gives its callback: the match, its groups, the offset, the text.
    expect(substitute('$2-$1 $10 $&$0 $<n> $$ $9', matchOf(['ab', 'a', 'b', 0, 'ab']))).toBe('b-a a0 abab $<n> $ $9');
    expect(substitute('[$<n>]', matchOf(['ab', 'a', 0, 'ab', { n: 'a' }]))).toBe('[a]');
  });

  it("takes VS Code's line breaks, tabs and case changes: \\n \\t \\\\, then \\u \\l one letter of the next group, \\U \\L all of it", () => {
    const otter = matchOf(['sea otter', 'sea', 'oTTer', 0, 'sea otter', { kind: 'oTTer' }]);
    expect(substitute('$1\\n$2\\t\\\\n', otter)).toBe('sea\noTTer\t\\n');
    expect(substitute('\\u$1 \\U$2 \\l\\U$& \\L$<kind>', otter)).toBe('Sea OTTER sEA OTTER otter');
    // One change a letter in turn: a capital, then all small.
    expect(substitute('\\u\\L$2', otter)).toBe('Otter');
    // By letter, whatever its length: a capital ß is SS, and a letter past the BMP changes whole.
    expect(substitute('\\u$1 \\L$1', matchOf(['ßtraße𐐨', 'ßtRAßE𐐀', 0, 'ßtraße𐐨']))).toBe('SStRAßE𐐀 ßtraße𐐨');
    // A change waits for the next group, past text between; with no group after it, it changes nothing.
    expect(substitute('\\Uthe $2\\u', otter)).toBe('the OTTER');
    // Anything else after a backslash, and a backslash at the end, stay as typed.
    expect(substitute('\\d$1\\', otter)).toBe('\\dsea\\');
  });

  it('fills in case changes and line breaks in a flow with a regular expression, and only then', () => {
    const result = replaceInFlow(flow, 'a (ticket) is', '\\U$1\\nis', { regex: true });
    expect(node(applied(flow, result.changes), 'classify').config.prompt).toBe(
      'Classify the ticket. TICKET\nis one message.',
    );
    const plain = replaceInFlow(flow, 'a ticket is', '\\U$1\\n', { only: { kind: 'node', id: 'classify' } });
    expect(node(applied(flow, plain.changes), 'classify').config.prompt).toBe(
      'Classify the ticket. \\U$1\\n one message.',
    );
  });

  it('keeps capitals as editors do: all capitals, all small, else the first letter; snake and kebab parts each', () => {
    expect(withCaseOf('TICKET', 'case')).toBe('CASE');
    expect(withCaseOf('ticket', 'Case')).toBe('case');
    expect(withCaseOf('Ticket', 'case')).toBe('Case');
    expect(withCaseOf('TicketLog', 'caseFile')).toBe('CaseFile');
    expect(withCaseOf('ticketLog', 'CaseFile')).toBe('caseFile');
    expect(withCaseOf('Ticket_LOG', 'case_file')).toBe('Case_FILE');
    expect(withCaseOf('ticket-Log', 'Case-file')).toBe('case-File');
    // Parts that do not pair up: the word whole.
    expect(withCaseOf('Ticket_Log', 'case')).toBe('Case');
    expect(withCaseOf('42', 'Case')).toBe('Case');
    expect(withCaseOf('Ticket', '')).toBe('');
  });

  it('changes nothing for empty words or words found nowhere', () => {
    expect(replaceInFlow(flow, '  ', 'x')).toEqual({ changes: undefined, count: 0, nodes: 0, notes: 0, leftAlone: [] });
    expect(replaceInFlow(flow, 'otters', 'x').changes).toBeUndefined();
  });
});
