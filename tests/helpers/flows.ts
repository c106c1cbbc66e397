import type { FlowInput } from '../../core/model/flow';
import { buildFlow, input, llm, output, template } from './flow-builder';

/** input → clean (template) → summarise (an LLM) → result, in a row: the editor's partial-run and preview tests. */
export const summaryChain = (): FlowInput & { id: string } => ({
  ...buildFlow({
    id: 'chain',
    parameters: [{ name: 'text', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...template('clean', 'CLEAN {{inputs.text}}'), position: { x: 300, y: 100 } },
      { ...llm('summarise', 'Summarise {{nodes.clean.output}}'), position: { x: 600, y: 100 } },
      { ...output('{{nodes.summarise.output}}'), position: { x: 900, y: 100 } },
    ],
    edges: ['input>clean', 'clean>summarise', 'summarise>result'],
  }),
  name: 'Chain',
});

/** input (one parameter) → an LLM node (`reply`: its id and prompt) → result, in a row: a flow whose answer is its model's. */
export const llmFlow = (
  flow: { id: string; name: string; parameter: NonNullable<FlowInput['parameters']>[number] },
  reply: { id: string; prompt: string },
): FlowInput & { id: string } => ({
  ...buildFlow({
    id: flow.id,
    parameters: [flow.parameter],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      { ...llm(reply.id, reply.prompt), position: { x: 300, y: 100 } },
      { ...output(`{{nodes.${reply.id}.output}}`), position: { x: 600, y: 100 } },
    ],
    edges: [`input>${reply.id}`, `${reply.id}>result`],
  }),
  name: flow.name,
});

/** input (version) → confirm (an ask node: ship it? which channel?) → result: the human-input tests. */
export const releaseFlow = (): FlowInput & { id: string } => ({
  ...buildFlow({
    id: 'release',
    parameters: [{ name: 'version', type: 'string' }],
    nodes: [
      { ...input(), position: { x: 0, y: 100 } },
      {
        id: 'confirm',
        type: 'ask',
        label: 'Confirm',
        position: { x: 320, y: 100 },
        config: {
          message: 'Ship {{inputs.version}}?',
          fields: [
            { name: 'ship', type: 'boolean', title: 'Ship it' },
            { name: 'channel', type: 'enum', options: ['stable', 'beta'] },
            { name: 'copies', type: 'integer', required: false },
            { name: 'notes', type: 'string', required: false },
          ],
        },
      },
      {
        ...output('ship={{nodes.confirm.output.ship}} channel={{nodes.confirm.output.channel}}'),
        position: { x: 640, y: 100 },
      },
    ],
    edges: ['input>confirm', 'confirm>result'],
  }),
  name: 'Release',
});

/** A small valid flow: input → template → output. */
export function smallFlow(overrides: Partial<FlowInput> = {}): FlowInput {
  return {
    schemaVersion: 1,
    id: 'small',
    name: 'Small flow',
    tool: { name: 'small_flow' },
    parameters: [{ name: 'topic', type: 'string' }],
    nodes: [
      { id: 'input', type: 'input', position: { x: 0, y: 0 } },
      { id: 'greet', type: 'template', position: { x: 200, y: 0 }, config: { template: 'About {{inputs.topic}}' } },
      {
        id: 'result',
        type: 'output',
        position: { x: 400, y: 0 },
        config: { returnValues: [{ id: 'r', text: '{{nodes.greet.output}}' }] },
      },
    ],
    edges: [
      { id: 'e1', source: 'input', target: 'greet' },
      { id: 'e2', source: 'greet', target: 'result' },
    ],
    ...overrides,
  };
}

/** A template chain of `count` nodes plus one extra edge, as the benchmarks use. */
export function generatedFlow(count: number, id = 'generated'): FlowInput {
  const nodes: FlowInput['nodes'] = [{ id: 'n0', type: 'input', position: { x: 0, y: 0 } }];
  const edges: NonNullable<FlowInput['edges']> = [];
  for (let i = 1; i < count - 1; i++) {
    nodes.push({
      id: `n${i}`,
      type: 'template',
      label: `Step ${i}`,
      position: { x: (i % 50) * 220, y: Math.floor(i / 50) * 140 },
      config: { template: `Step ${i}: {{nodes.n${i - 1}.output}}` },
    });
    edges.push({ id: `e${i}`, source: `n${i - 1}`, target: `n${i}` });
  }
  nodes.push({
    id: `n${count - 1}`,
    type: 'output',
    position: { x: 0, y: Math.ceil(count / 50) * 140 },
    config: { returnValues: [{ id: 'r', text: `{{nodes.n${count - 2}.output}}` }] },
  });
  edges.push({ id: `e${count - 1}`, source: `n${count - 2}`, target: `n${count - 1}` });
  // One more edge so the graph has as many edges as nodes.
  edges.push({ id: `e${count}`, source: 'n0', target: `n${count - 1}` });
  return { schemaVersion: 1, id, name: `Generated ${count}`, tool: { name: `generated_${count}` }, nodes, edges };
}
