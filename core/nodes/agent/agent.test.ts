import { describe, expect, it } from 'vitest';
import { agentNode } from './definition';

describe('agent node', () => {
  it('defaults to no tools and eight steps', () => {
    expect(agentNode.configSchema.parse(agentNode.defaults())).toMatchObject({ tools: [], maxSteps: 8 });
  });

  it('refuses a step limit outside 1–100 and a tool without a server', () => {
    expect(agentNode.configSchema.safeParse({ maxSteps: 0 }).success).toBe(false);
    expect(agentNode.configSchema.safeParse({ maxSteps: 101 }).success).toBe(false);
    expect(agentNode.configSchema.safeParse({ tools: [{ tool: 'echo' }] }).success).toBe(false);
  });

  it('cannot run in this build: the engine reports NODE_NOT_RUNNABLE for it', () => {
    expect(agentNode.execute).toBeUndefined();
  });
});
