import { z } from 'zod';

/** Sampling options shared by model-calling nodes (seed 004's step overrides). */
export const ModelOptionsShape = {
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
};

/** Reads the last `limit` entries of a memory channel into the prompt context. */
export const MemoryReadSchema = z.object({
  channel: z.string().min(1).max(128),
  limit: z.number().int().min(1).max(1000).default(10),
});

/** Writes the node's answer (AGENT_OUTPUT) or a fixed payload (STATIC) to a channel. */
export const MemoryWriteSchema = z.object({
  channel: z.string().min(1).max(128),
  mode: z.enum(['AGENT_OUTPUT', 'STATIC']),
  payload: z.json().optional(),
});
