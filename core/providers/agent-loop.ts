import {
  dynamicTool,
  jsonSchema,
  NoSuchToolError,
  stepCountIs,
  type JSONSchema7,
  type ModelMessage,
  type ToolSet,
  type TypedToolCall,
} from 'ai';
import type { AgentRequest, AgentResponse, InvalidToolCall } from '../model/llm';
import type { LlmMessage } from '../model/run';
import { imagesNote } from '../model/prompt-images';
import { withToolImages, type SentImages, type ToolImages } from './tool-images';
import type { PreparedCall } from './ai-sdk-port';
import { modelAnswer } from './model-answer';

/** The parts of an AI SDK step the run record keeps. */
interface FinishedStep {
  text: string;
  finishReason: string;
  content: readonly object[];
}

type Part = { type: string } & Record<string, unknown>;

/**
 * The assistant turn and the tool answers of one step, as the step record
 * shows them; the pictures the tools answered with follow as the message that
 * sent them, each named with its type and size.
 */
function stepMessages(step: FinishedStep, images: ToolImages): LlmMessage[] {
  const parts = step.content as readonly Part[];
  const calls = parts
    .filter((part) => part.type === 'tool-call')
    .map((part) => ({ id: String(part.toolCallId), name: String(part.toolName), arguments: part.input }));
  const answers = parts
    .filter((part) => part.type === 'tool-result' || part.type === 'tool-error')
    .map((part): LlmMessage => ({
      role: 'tool',
      toolCallId: String(part.toolCallId),
      content:
        part.type === 'tool-result'
          ? typeof part.output === 'string'
            ? part.output
            : JSON.stringify(part.output)
          : `error: ${part.error instanceof Error ? part.error.message : String(part.error)}`,
    }));
  const pictures = answers.flatMap((answer) => {
    const sent = images.get(answer.toolCallId ?? '');
    return sent ? [`${sent.intro}\n${imagesNote(sent.images)}`] : [];
  });
  return [
    { role: 'assistant', content: step.text, ...(calls.length > 0 ? { toolCalls: calls } : {}) },
    ...answers,
    ...(pictures.length > 0 ? [{ role: 'user' as const, content: pictures.join('\n') }] : []),
  ];
}

function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/**
 * An agent's tool-use loop through the AI SDK: the model gets the tools, the
 * SDK runs the calls it makes (through each tool's `execute`, which reaches
 * the MCP server) and sends the answers back, until the model answers
 * without calling a tool or `maxSteps` turns were taken. A tool that throws
 * is answered to the model as an error; a node that wants the step to fail
 * instead aborts the request's signal with its error.
 */
export async function runAgentLoop(prepared: PreparedCall, request: AgentRequest): Promise<AgentResponse> {
  const { config, model, call } = prepared;
  const messages = [...prepared.messages];
  /** The pictures each call answered with, by call id: sent to the model after the tool's text (see tool-images.ts). */
  const images = new Map<string, SentImages>();
  const tools: ToolSet = Object.fromEntries(
    request.tools.map((agentTool) => [
      agentTool.name,
      dynamicTool({
        ...(agentTool.description ? { description: agentTool.description } : {}),
        inputSchema: jsonSchema(agentTool.inputSchema as JSONSchema7),
        execute: async (input, { abortSignal, toolCallId }) => {
          const answer = await agentTool.execute(
            input as Record<string, unknown>,
            abortSignal ?? request.signal,
            toolCallId,
          );
          if (answer.images.length > 0) {
            images.set(toolCallId, {
              intro: `The image${answer.images.length === 1 ? '' : 's'} ${agentTool.name} answered with (call ${toolCallId}):`,
              images: answer.images,
            });
          }
          return answer.text;
        },
      }),
    ]),
  );
  let steps = 0;
  let lastFinish = '';
  const options = {
    ...call,
    tools,
    stopWhen: stepCountIs(request.maxSteps),
    prepareStep: ({ messages: sending }: { messages: ModelMessage[] }) =>
      images.size > 0 ? { messages: withToolImages(sending, images) } : {},
    onStepFinish: (step: FinishedStep) => {
      steps += 1;
      lastFinish = step.finishReason;
      messages.push(...stepMessages(step, images));
    },
    // An unknown tool or arguments that are not JSON: the node is told, then the model gets the error.
    experimental_repairToolCall: ({
      toolCall,
      error,
    }: {
      toolCall: Pick<TypedToolCall<ToolSet>, 'toolCallId' | 'toolName'> & { input: string };
      error: Error;
    }) => {
      const invalid: InvalidToolCall = {
        id: toolCall.toolCallId,
        name: toolCall.toolName,
        arguments: parsedInput(toolCall.input),
        reason: NoSuchToolError.isInstance(error) ? 'unknown_tool' : 'invalid_arguments',
        message: error.message,
      };
      request.onInvalidCall?.(invalid);
      return Promise.resolve(null);
    },
  };
  // The answer's text, and its usage and warnings where it has them.
  const answer = await modelAnswer(prepared, request, options);
  if (request.signal.aborted) throw request.signal.reason;
  return {
    ...answer,
    messages,
    provider: config.name,
    model,
    steps,
    hitStepLimit: lastFinish === 'tool-calls',
  };
}
