import type { AbortSignalLike } from './abort';
import type { PromptImage } from './prompt-images';
import type { LlmMessage, TokenUsage } from './run';

/** A provider and model as a node's config names them ('' for the default provider, the provider's default model). */
export interface ModelUse {
  provider: string;
  model: string;
}

/** One model call as nodes ask for it; providers turn it into an HTTP request. */
export interface LlmRequest {
  /** Provider name from settings; empty for the default provider. */
  provider: string;
  model: string;
  system?: string;
  /** User messages sent before the prompt: what the node read from memory. */
  context?: readonly string[];
  prompt: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** For `json`, the provider tells the model to answer with JSON matching the schema. */
  outputFormat: 'text' | 'json';
  jsonSchema?: Record<string, unknown>;
  signal: AbortSignalLike;
  /**
   * Called with each streamed text chunk. Without it the provider makes one
   * plain request (nobody watches the tokens), even if it could stream.
   */
  onToken?: (text: string) => void;
}

export interface LlmResponse {
  /** The answer as text; nodes that asked for JSON parse and check it themselves. */
  text: string;
  usage?: TokenUsage;
  /** Exactly what was sent and received, for the run record. */
  messages: LlmMessage[];
  provider: string;
  model: string;
  /** What the provider said it did not honour (a setting the model does not take), for the step. */
  warnings?: string[];
  /** Why the model stopped before its answer was done: its token limit, or the provider's content filter. */
  stopped?: 'length' | 'content-filter';
}

/** The instruction a provider adds to the system prompt when a request asks for JSON. */
export function jsonInstruction(schema: Record<string, unknown> | undefined): string {
  const base = 'Answer with one JSON value only: no prose, no code fences.';
  return schema ? `${base} It must match this JSON Schema:\n${JSON.stringify(schema)}` : base;
}

/** The port through which nodes call models; hosts plug providers in. */
export interface LlmPort {
  generate(request: LlmRequest): Promise<LlmResponse>;
  /** An agent's tool-use loop. */
  runAgent(request: AgentRequest): Promise<AgentResponse>;
}

/** A tool an agent's model may call, as the node hands it to the provider. */
export interface AgentTool {
  /** The name the model sees: unique within the request, letters, digits, _ and -. */
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** Runs the call; what it answers goes back to the model. A throw is given to the model as the tool's error. */
  execute(args: Record<string, unknown>, signal: AbortSignalLike, callId: string): Promise<ToolAnswer>;
}

/** A tool's answer to a model: its text, `[image 1]`… where its pictures were, and the pictures, sent as images. */
export interface ToolAnswer {
  text: string;
  images: readonly PromptImage[];
}

/** A call the model made that cannot run: a tool that does not exist, or arguments that are not a JSON object. */
export interface InvalidToolCall {
  id: string;
  name: string;
  arguments: unknown;
  reason: 'unknown_tool' | 'invalid_arguments';
  message: string;
}

/** A tool-use loop: the model calls tools until it answers or reaches `maxSteps` turns. */
export interface AgentRequest extends Omit<LlmRequest, 'outputFormat' | 'jsonSchema'> {
  tools: AgentTool[];
  maxSteps: number;
  /** Told of each invalid call; the model is then given the error (the node may abort its signal to fail instead). */
  onInvalidCall?: (call: InvalidToolCall) => void;
}

export interface AgentResponse extends LlmResponse {
  /** Model turns taken. */
  steps: number;
  /** True when the loop ended because it reached maxSteps with the model still calling tools. */
  hitStepLimit: boolean;
}
