import { describe, expect, it } from 'vitest';
import type { AgentSettings } from '../../model/agents';
import { agentNode, effectiveSettings } from './definition';

const version: AgentSettings = {
  provider: 'lib',
  model: 'lib-model',
  system: 'You are the library agent.',
  tools: [{ server: 'files', tool: 'read_text_file' }],
  maxSteps: 4,
  toolErrors: 'tell_model',
};

describe('agent node', () => {
  it('defaults to no tools, eight steps, and failing on a failed tool call', () => {
    expect(agentNode.configSchema.parse(agentNode.defaults())).toMatchObject({
      tools: [],
      maxSteps: 8,
      toolErrors: 'fail',
    });
  });

  it('refuses a step limit outside 1–100; a tool row without a name yet is kept, and said', () => {
    expect(agentNode.configSchema.safeParse({ maxSteps: 0 }).success).toBe(false);
    expect(agentNode.configSchema.safeParse({ maxSteps: 101 }).success).toBe(false);
    const config = agentNode.configSchema.parse({ prompt: 'Go.', tools: [{ server: 'everything' }] });
    expect(agentNode.check?.(config)).toEqual([
      { code: 'NODE_SETUP', severity: 'error', message: 'tool 1 has no name yet', field: 'config.tools.0.tool' },
    ]);
  });

  it('warns when it gives the agent nothing to do, unless a library agent brings its prompts', () => {
    const empty = agentNode.configSchema.parse(agentNode.defaults());
    expect(agentNode.check?.(empty)).toEqual([
      expect.objectContaining({ code: 'EMPTY_PROMPT', severity: 'warning', field: 'config.prompt' }),
    ]);
    expect(agentNode.check?.({ ...empty, agentVersionId: 'v1' })).toEqual([]);
    expect(agentNode.check?.({ ...empty, prompt: 'Find the weather in Oslo.' })).toEqual([]);
  });

  it('says on its card what it is given to do, and that there is nothing yet', () => {
    const empty = agentNode.configSchema.parse(agentNode.defaults());
    expect(agentNode.summary(empty)).toBe('0 tools · no prompt yet');
    expect(agentNode.summary({ ...empty, prompt: 'Find the weather in Oslo.' })).toBe(
      '0 tools · Find the weather in Oslo.',
    );
    expect(agentNode.summary({ ...empty, agentVersionId: 'v1' })).toBe('library agent · its own prompts');
  });

  it('runs a library version as it was published, with what the node sets on top', () => {
    const own = agentNode.configSchema.parse({ agentVersionId: 'v1', prompt: 'Do it', temperature: 0.3 });
    expect(effectiveSettings(own, version)).toMatchObject({
      provider: 'lib',
      model: 'lib-model',
      system: 'You are the library agent.',
      tools: version.tools,
      maxSteps: 4,
      toolErrors: 'tell_model',
      temperature: 0.3,
    });
    const overridden = agentNode.configSchema.parse({ model: 'mine', tools: [{ tool: 'echo' }] });
    expect(effectiveSettings(overridden, version)).toMatchObject({
      model: 'mine',
      tools: [{ server: '', tool: 'echo' }],
    });
  });
});
