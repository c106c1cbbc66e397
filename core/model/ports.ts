import type { AgentResolver } from './agents';
import { FlowbenchError } from './errors';
import type { HumanInputPort } from './human-input';
import type { HttpPort } from './http';
import type { CodePort } from './code';
import type { LlmPort } from './llm';
import type { MemoryPort } from './memory';
import type { SubflowPort } from './subflows';
import type { ToolPort } from './tools';

/** What the engine hands every node: models, MCP tools, other flows, the agent library. */
export interface NodePorts {
  llm: LlmPort;
  tools: ToolPort;
  subflows: SubflowPort;
  agents: AgentResolver;
  /** The run's flow's memory channels. */
  memory: MemoryPort;
  /** A person to ask (ask nodes). */
  human: HumanInputPort;
  /** The network, for HTTP request nodes. */
  http: HttpPort;
  /** The sandbox code nodes run their code in. */
  code: CodePort;
  /** The flows of the runs above this one, outermost first (flow nodes refuse to call back into them). */
  callers: readonly string[];
  /** Someone watches the run's tokens (see NodeContext.streamsTokens). */
  streamsTokens: boolean;
}

const unavailable = (what: string) => () => {
  throw new FlowbenchError('NODE_NOT_RUNNABLE', `${what} are not available where this flow runs`);
};

/** Ports for hosts that offer no MCP servers, flows or agents (unit tests, benchmarks). */
export const NO_TOOLS: ToolPort = {
  listTools: unavailable('MCP servers'),
  findTool: unavailable('MCP servers'),
  callTool: unavailable('MCP servers'),
};
export const NO_SUBFLOWS: SubflowPort = { describe: unavailable('other flows'), run: unavailable('other flows') };
export const NO_AGENTS: AgentResolver = { version: unavailable('library agents') };
