import type { AbortSignalLike } from './abort';
import type { LlmMessage, TokenUsage } from './run';

/** One model call as nodes ask for it; providers turn it into an HTTP request. */
export interface LlmRequest {
  /** Provider name from settings; empty for the default provider. */
  provider: string;
  model: string;
  system?: string;
  prompt: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** For `json`, the provider tells the model to answer with JSON matching the schema. */
  outputFormat: 'text' | 'json';
  jsonSchema?: Record<string, unknown>;
  signal: AbortSignalLike;
  /** Called with each streamed text chunk. */
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
}

/** The instruction a provider adds to the system prompt when a request asks for JSON. */
export function jsonInstruction(schema: Record<string, unknown> | undefined): string {
  const base = 'Answer with one JSON value only: no prose, no code fences.';
  return schema ? `${base} It must match this JSON Schema:\n${JSON.stringify(schema)}` : base;
}

/** The port through which nodes call models; hosts plug providers in. */
export interface LlmPort {
  generate(request: LlmRequest): Promise<LlmResponse>;
}
