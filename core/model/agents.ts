import { z } from 'zod';

/**
 * Agents: a model with a system prompt and the MCP tools it may call, looping
 * over tool calls until it answers (seed 003's CustomAgent, seed 004's agent
 * versions). The same settings are an agent node's inline config and an
 * agent version in the library.
 */

/** One tool an agent may use: a tool of a connected server, or (server empty) a tool found by name on any of them. */
export const ToolRefSchema = z.object({
  server: z.string().max(128).default(''),
  tool: z.string().min(1).max(128),
});
export type ToolRef = z.infer<typeof ToolRefSchema>;

/**
 * What happens when a tool call fails (the tool errors, the model names a tool
 * that does not exist, or its arguments do not fit the schema): `fail` ends
 * the step with the error; `tell_model` gives the error to the model as the
 * tool's answer, so it can correct itself.
 */
export const TOOL_ERROR_POLICIES = ['fail', 'tell_model'] as const;

export const agentSettingsShape = () => ({
  provider: z.string().max(128).default(''),
  model: z.string().max(256).default(''),
  system: z.string().max(200_000).default(''),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  tools: z.array(ToolRefSchema).max(200).default([]),
  /** Upper bound on model turns in the tool-use loop. */
  maxSteps: z.number().int().min(1).max(100).default(8),
  /** Time limit of one tool call; empty: the server's. */
  toolTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  toolErrors: z.enum(TOOL_ERROR_POLICIES).default('fail'),
});

export const AgentSettingsSchema = z.object(agentSettingsShape());
export type AgentSettings = z.infer<typeof AgentSettingsSchema>;

/**
 * `review`: created by an import from an agent version Flowbench did not
 * know; it runs with the default provider, but flows using it publish only
 * after a person reviewed it.
 */
export const AGENT_STATUSES = ['active', 'review'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const AgentNameSchema = z.string().trim().min(1).max(200);

/** An agent of the library, as lists show it. */
export interface AgentSummary {
  id: string;
  name: string;
  description: string;
  status: AgentStatus;
  /** The draft's settings: what the next published version will be. */
  draft: AgentSettings;
  /** The newest published version, if any. */
  latestVersion?: { id: string; version: number; publishedAt: string };
  updatedAt: string;
}

/** One published, immutable version of an agent; flow steps name it by id. */
export interface AgentVersion {
  id: string;
  agentId: string;
  agentName: string;
  version: number;
  settings: AgentSettings;
  status: AgentStatus;
  publishedAt: string;
}

/** How nodes find an agent version while a flow runs. Throws AGENT_NOT_FOUND. */
export interface AgentResolver {
  version(id: string): AgentVersion;
}
